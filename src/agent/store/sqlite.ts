/** The PaymentStore in the agent's SQLite (migrations area `agent_payments`). */
import {migrateSqlite, type SqliteDatabase} from '../../store/sqlite.js'
import {AGENT_PAYMENTS_MIGRATIONS} from './migrations.js'
import {createSqlitePayerBindings} from './sqlite-bindings.js'
import type {AllowanceGrant, ClaimResult, DepositOutcome, NewDeposit, NewProof, NonceRecord, PaymentStore, ProofRecord, ProofState, StoredAnswer} from './store.js'

const CURSOR_KEY = 'deposit_cursor'

interface NonceRow {
  nonce: string
  resource: string
  lamports: string
  issued_ms: number
  expires_ms: number
  used_by: string | null
  body_hash: string | null
  signer: string | null
}
interface ProofRow {
  signature: string
  nonce: string
  resource: string
  body_hash: string
  lamports: string
  paid_lamports: string
  state: ProofState
  verified_ms: number
  expires_ms: number | null
  signer: string | null
  answer_status: number | null
  answer_headers: string | null
  answer_body: string | null
  answer_bytes: number | null
}

const toNonce = (row: NonceRow): NonceRecord => ({
  nonce: row.nonce,
  resource: row.resource,
  lamports: BigInt(row.lamports),
  issuedMs: row.issued_ms,
  expiresMs: row.expires_ms,
  usedBy: row.used_by,
  bodyHash: row.body_hash,
  signer: row.signer,
})

const toAnswer = (row: ProofRow): StoredAnswer | null => {
  if (row.answer_status === null || row.answer_body === null) return null
  const answer: StoredAnswer = {status: row.answer_status, body: row.answer_body}
  if (row.answer_headers !== null) answer.headers = JSON.parse(row.answer_headers) as Record<string, string>
  return answer
}
const toProof = (row: ProofRow): ProofRecord => ({
  signature: row.signature,
  nonce: row.nonce,
  resource: row.resource,
  bodyHash: row.body_hash,
  signer: row.signer,
  lamports: BigInt(row.lamports),
  paidLamports: BigInt(row.paid_lamports),
  state: row.state,
  verifiedMs: row.verified_ms,
  expiresMs: row.expires_ms,
  answer: toAnswer(row),
  answerBytes: row.answer_bytes,
})

/** A PaymentStore over a handle from `openSqlite()`; applies its migrations. */
export function createSqlitePaymentStore(db: SqliteDatabase): PaymentStore {
  migrateSqlite(db, AGENT_PAYMENTS_MIGRATIONS)
  const q = {
    allowance: db.prepare('SELECT window_start_ms, used FROM agent_pay_allowance WHERE key = ?'),
    putAllowance: db.prepare(`INSERT INTO agent_pay_allowance (key, window_start_ms, used) VALUES (?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET window_start_ms = excluded.window_start_ms, used = excluded.used`),
    unuseAllowance: db.prepare('UPDATE agent_pay_allowance SET used = used - 1 WHERE key = ? AND window_start_ms = ? AND used > 0'),
    insertNonce: db.prepare(`INSERT INTO agent_pay_nonces (nonce, resource, lamports, issued_ms, expires_ms, body_hash, signer)
      VALUES (@nonce, @resource, @lamports, @issuedMs, @expiresMs, @bodyHash, @signer)`),
    nonce: db.prepare('SELECT * FROM agent_pay_nonces WHERE nonce = ?'),
    useNonce: db.prepare('UPDATE agent_pay_nonces SET used_by = ? WHERE nonce = ? AND used_by IS NULL'),
    proof: db.prepare('SELECT * FROM agent_pay_proofs WHERE signature = ?'),
    insertProof: db.prepare(`INSERT INTO agent_pay_proofs
      (signature, nonce, resource, body_hash, signer, lamports, paid_lamports, state, verified_ms, expires_ms)
      VALUES (@signature, @nonce, @resource, @bodyHash, @signer, @lamports, @paidLamports, 'reserved', @nowMs, NULL)`),
    reserveVerified: db.prepare(`UPDATE agent_pay_proofs SET state = 'reserved'
      WHERE signature = ? AND resource = ? AND body_hash = ? AND state = 'verified'`),
    serveProof: db.prepare(`UPDATE agent_pay_proofs SET state = 'served', expires_ms = @expiresMs,
      answer_status = @status, answer_headers = @headers, answer_body = @body, answer_bytes = @bytes
      WHERE signature = @signature AND state = 'reserved'`),
    releaseProof: db.prepare(`UPDATE agent_pay_proofs SET state = 'verified' WHERE signature = ? AND state = 'reserved'`),
    releaseAllProofs: db.prepare(`UPDATE agent_pay_proofs SET state = 'verified' WHERE state = 'reserved'`),
    credits: db.prepare('SELECT balance, remainder_lamports FROM agent_pay_credits WHERE pubkey = ?'),
    putCredits: db.prepare(`INSERT INTO agent_pay_credits (pubkey, balance, remainder_lamports) VALUES (?, ?, ?)
      ON CONFLICT (pubkey) DO UPDATE SET balance = excluded.balance, remainder_lamports = excluded.remainder_lamports`),
    debit: db.prepare('UPDATE agent_pay_credits SET balance = balance - @units WHERE pubkey = @pubkey AND balance >= @units'),
    refund: db.prepare('UPDATE agent_pay_credits SET balance = balance + @units WHERE pubkey = @pubkey'),
    deposit: db.prepare('SELECT outcome FROM agent_pay_deposits WHERE signature = ?'),
    insertDeposit: db.prepare(`INSERT INTO agent_pay_deposits (signature, outcome, payer_address, pubkey, lamports, credits, seen_ms)
      VALUES (@signature, @outcome, @payerAddress, @pubkey, @lamports, @credits, @nowMs)`),
    getState: db.prepare('SELECT value FROM agent_pay_state WHERE key = ?'),
    putState: db.prepare(`INSERT INTO agent_pay_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
    purgeAllowance: db.prepare('DELETE FROM agent_pay_allowance WHERE window_start_ms < ?'),
    purgeNonces: db.prepare('DELETE FROM agent_pay_nonces WHERE used_by IS NULL AND expires_ms < ?'),
    // The proof row stays (its signature never pays again); only the kept answer goes.
    purgeAnswers: db.prepare(`UPDATE agent_pay_proofs SET answer_status = NULL, answer_headers = NULL, answer_body = NULL
      WHERE state = 'served' AND answer_body IS NOT NULL AND expires_ms < ?`),
  }

  const reserveAllowance = db.transaction((keys: string[], limit: number, nowMs: number, windowMs: number): AllowanceGrant | null => {
    if (limit <= 0 || keys.length === 0) return null
    const current = keys.map((key) => {
      const row = q.allowance.get(key) as {window_start_ms: number; used: number} | undefined
      // spec Limits: 24 h expiry — a window older than that starts afresh at this call.
      return row && nowMs < row.window_start_ms + windowMs ? {key, windowStartMs: row.window_start_ms, used: row.used} : {key, windowStartMs: nowMs, used: 0}
    })
    // DECISIONS Free allowance: exhausting either the pubkey's or the IP's count means pay.
    if (current.some((entry) => entry.used >= limit)) return null
    for (const entry of current) q.putAllowance.run(entry.key, entry.windowStartMs, entry.used + 1)
    return {keys: current.map(({key, windowStartMs}) => ({key, windowStartMs})), left: Math.min(...current.map((entry) => limit - entry.used - 1))}
  })

  const claimProof = db.transaction((proof: NewProof): ClaimResult => {
    const existing = q.proof.get(proof.signature) as ProofRow | undefined
    if (existing) return {claimed: false, reason: 'proof_exists', proof: toProof(existing)}
    if ((q.deposit.get(proof.signature) as {outcome: DepositOutcome} | undefined)?.outcome === 'credited') return {claimed: false, reason: 'credited_deposit'}
    if (q.useNonce.run(proof.signature, proof.nonce).changes !== 1) return {claimed: false, reason: 'nonce_used'}
    q.insertProof.run({...proof, lamports: proof.lamports.toString(), paidLamports: proof.paidLamports.toString()})
    return {claimed: true, proof: toProof(q.proof.get(proof.signature) as ProofRow)}
  })

  const reserveVerifiedProof = db.transaction((signature: string, resource: string, bodyHash: string): ProofRecord | null => {
    if (q.reserveVerified.run(signature, resource, bodyHash).changes !== 1) return null
    return toProof(q.proof.get(signature) as ProofRow)
  })

  const recordDeposit = db.transaction((deposit: NewDeposit) => {
    if (q.deposit.get(deposit.signature)) return {recorded: false, outcome: deposit.outcome, credits: 0}
    // A verified proof is a per-call payment even if the scan saw no nonce in its memo.
    const outcome: DepositOutcome = deposit.outcome === 'credited' && q.proof.get(deposit.signature) ? 'per_call' : deposit.outcome
    let credits = 0
    if (outcome === 'credited') {
      if (!deposit.pubkey || deposit.lamports === undefined || !deposit.lamportsPerCredit || deposit.lamportsPerCredit <= 0n) {
        throw new TypeError('a credited deposit needs pubkey, lamports and lamportsPerCredit')
      }
      const row = q.credits.get(deposit.pubkey) as {balance: number; remainder_lamports: string} | undefined
      // Lamports below one credit are kept and count toward the next deposit.
      const total = BigInt(row?.remainder_lamports ?? '0') + deposit.lamports
      credits = Number(total / deposit.lamportsPerCredit)
      q.putCredits.run(deposit.pubkey, (row?.balance ?? 0) + credits, (total % deposit.lamportsPerCredit).toString())
    }
    q.insertDeposit.run({
      signature: deposit.signature,
      outcome,
      payerAddress: deposit.payerAddress ?? null,
      pubkey: outcome === 'credited' ? deposit.pubkey : null,
      lamports: deposit.lamports?.toString() ?? null,
      credits,
      nowMs: deposit.nowMs,
    })
    return {recorded: true, outcome, credits}
  })

  const payers = createSqlitePayerBindings(db)
  return {
    ...payers.methods,
    reserveAllowance: (keys, limit, nowMs, windowMs) => reserveAllowance(keys, limit, nowMs, windowMs),
    releaseAllowance(grant) {
      db.transaction(() => {
        for (const {key, windowStartMs} of grant.keys) q.unuseAllowance.run(key, windowStartMs)
      })()
    },
    issueNonce(record) {
      q.insertNonce.run({...record, lamports: record.lamports.toString()})
    },
    findNonces(nonces) {
      return [...new Set(nonces)].flatMap((nonce) => {
        const row = q.nonce.get(nonce) as NonceRow | undefined
        return row ? [toNonce(row)] : []
      })
    },
    getProof(signature) {
      const row = q.proof.get(signature) as ProofRow | undefined
      return row ? toProof(row) : null
    },
    claimProof: (proof) => claimProof(proof),
    reserveVerifiedProof: (signature, resource, bodyHash) => reserveVerifiedProof(signature, resource, bodyHash),
    serveProof(signature, {expiresMs, answer, answerBytes}) {
      q.serveProof.run({
        signature,
        expiresMs,
        status: answer?.status ?? null,
        headers: answer?.headers ? JSON.stringify(answer.headers) : null,
        body: answer?.body ?? null,
        bytes: answerBytes,
      })
    },
    releaseProof(signature) {
      q.releaseProof.run(signature)
    },
    releaseStaleReservations: () => q.releaseAllProofs.run().changes,
    balance: (pubkey) => (q.credits.get(pubkey) as {balance: number} | undefined)?.balance ?? 0,
    reserveCredits(pubkey, units) {
      return db.transaction(() => {
        if (q.debit.run({pubkey, units}).changes !== 1) return null
        return (q.credits.get(pubkey) as {balance: number}).balance
      })()
    },
    refundCredits(pubkey, units) {
      q.refund.run({pubkey, units})
    },
    depositSeen: (signature) => q.deposit.get(signature) !== undefined,
    recordDeposit: (deposit) => recordDeposit(deposit),
    getCursor: () => (q.getState.get(CURSOR_KEY) as {value: string} | undefined)?.value ?? null,
    setCursor(signature) {
      q.putState.run(CURSOR_KEY, signature)
    },
    purge({windowsStartedBeforeMs, noncesExpiredBeforeMs, answersExpiredBeforeMs}) {
      db.transaction(() => {
        q.purgeAllowance.run(windowsStartedBeforeMs)
        q.purgeNonces.run(noncesExpiredBeforeMs)
        q.purgeAnswers.run(answersExpiredBeforeMs)
        payers.purgeChallenges(noncesExpiredBeforeMs)
      })()
    },
  }
}
