/**
 * The prepaid half of the PaymentStore in SQLite: payer bindings and the
 * proof-of-control challenges a topup issues (issue 18, deliverable 5).
 * Split from sqlite.ts by responsibility; createSqlitePaymentStore composes it.
 */
import type {SqliteDatabase} from '../../store/sqlite.js'
import type {Binding, BindingProof, PayerChallenge, PaymentStore} from './store.js'

interface BindingRow {
  payer_address: string
  pubkey: string
  bound_ms: number
  proven_by: BindingProof | null
}
interface ChallengeRow {
  nonce: string
  payer_address: string
  pubkey: string
  issued_ms: number
  expires_ms: number
}

const toBinding = (row: BindingRow): Binding => ({payerAddress: row.payer_address, pubkey: row.pubkey, boundMs: row.bound_ms, provenBy: row.proven_by})
const toChallenge = (row: ChallengeRow): PayerChallenge => ({
  nonce: row.nonce,
  payerAddress: row.payer_address,
  pubkey: row.pubkey,
  issuedMs: row.issued_ms,
  expiresMs: row.expires_ms,
})

type PayerBindingMethods = Pick<
  PaymentStore,
  'bindPayer' | 'getBinding' | 'bindings' | 'bindingsOf' | 'issuePayerChallenge' | 'latestPayerChallenge' | 'findPayerChallenges' | 'oldestPayerChallengeMs'
>

/** The binding methods over a migrated database, plus the purge of long-expired challenges (run inside the store's purge). */
export function createSqlitePayerBindings(db: SqliteDatabase): {methods: PayerBindingMethods; purgeChallenges(expiredBeforeMs: number): void} {
  const q = {
    binding: db.prepare('SELECT * FROM agent_pay_bindings WHERE payer_address = ?'),
    putBinding: db.prepare(`INSERT INTO agent_pay_bindings (payer_address, pubkey, bound_ms, proven_by) VALUES (?, ?, ?, ?)
      ON CONFLICT (payer_address) DO UPDATE SET pubkey = excluded.pubkey, bound_ms = excluded.bound_ms, proven_by = excluded.proven_by`),
    bindings: db.prepare('SELECT * FROM agent_pay_bindings ORDER BY bound_ms, payer_address'),
    bindingsOf: db.prepare('SELECT * FROM agent_pay_bindings WHERE pubkey = ? ORDER BY bound_ms, payer_address'),
    insertChallenge: db.prepare(`INSERT INTO agent_pay_payer_challenges (nonce, payer_address, pubkey, issued_ms, expires_ms)
      VALUES (@nonce, @payerAddress, @pubkey, @issuedMs, @expiresMs)`),
    latestChallenge: db.prepare(`SELECT * FROM agent_pay_payer_challenges WHERE payer_address = ? AND pubkey = ?
      ORDER BY issued_ms DESC, rowid DESC LIMIT 1`),
    challenge: db.prepare('SELECT * FROM agent_pay_payer_challenges WHERE nonce = ?'),
    oldestChallenge: db.prepare('SELECT MIN(issued_ms) AS oldest FROM agent_pay_payer_challenges'),
    purgeChallenges: db.prepare('DELETE FROM agent_pay_payer_challenges WHERE expires_ms < ?'),
  }

  const bindPayer = db.transaction((payerAddress: string, pubkey: string, nowMs: number, provenBy: BindingProof) => {
    const existing = q.binding.get(payerAddress) as BindingRow | undefined
    // First proven binding wins: only the address's own key can prove, so nobody else can take it over.
    if (existing && existing.proven_by !== null && existing.pubkey !== pubkey) return {bound: false as const, holder: existing.pubkey}
    if (existing && existing.proven_by !== null) return {bound: true as const, binding: toBinding(existing)}
    // No binding, or one made before proofs were asked for (which proved nothing): the proof decides.
    q.putBinding.run(payerAddress, pubkey, nowMs, provenBy)
    return {bound: true as const, binding: toBinding(q.binding.get(payerAddress) as BindingRow)}
  })

  return {
    methods: {
      bindPayer: (payerAddress, pubkey, nowMs, provenBy) => bindPayer(payerAddress, pubkey, nowMs, provenBy),
      getBinding(payerAddress) {
        const row = q.binding.get(payerAddress) as BindingRow | undefined
        return row ? toBinding(row) : null
      },
      bindings: () => (q.bindings.all() as BindingRow[]).map(toBinding),
      bindingsOf: (pubkey) => (q.bindingsOf.all(pubkey) as BindingRow[]).map(toBinding),
      issuePayerChallenge(challenge) {
        q.insertChallenge.run(challenge)
      },
      latestPayerChallenge(payerAddress, pubkey) {
        const row = q.latestChallenge.get(payerAddress, pubkey) as ChallengeRow | undefined
        return row ? toChallenge(row) : null
      },
      findPayerChallenges(nonces) {
        return [...new Set(nonces)].flatMap((nonce) => {
          const row = q.challenge.get(nonce) as ChallengeRow | undefined
          return row ? [toChallenge(row)] : []
        })
      },
      oldestPayerChallengeMs: () => (q.oldestChallenge.get() as {oldest: number | null}).oldest,
    },
    purgeChallenges(expiredBeforeMs) {
      q.purgeChallenges.run(expiredBeforeMs)
    },
  }
}
