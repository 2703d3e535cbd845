import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {AGENT_PAYMENTS_MIGRATIONS} from '../../../src/agent/store/migrations.js'
import {createSqlitePaymentStore} from '../../../src/agent/store/sqlite.js'
import type {PaymentStore} from '../../../src/agent/store/store.js'
import {migrateSqlite, openSqlite, type SqliteDatabase} from '../../../src/store/sqlite.js'

const DAY = 24 * 60 * 60 * 1000
const opened: SqliteDatabase[] = []
const dirs: string[] = []

function store(dataDir?: string): PaymentStore {
  const db = openSqlite({dataDir})
  opened.push(db)
  return createSqlitePaymentStore(db)
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close()
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

const proof = (signature: string, nonce: string, over = {}) => ({
  signature,
  nonce,
  resource: '/v1/echo',
  bodyHash: 'h1',
  signer: null,
  lamports: 1000n,
  paidLamports: 1000n,
  nowMs: 10,
  ...over,
})

const nonceFor = (nonce: string, over: {lamports?: bigint; issuedMs?: number; expiresMs?: number; bodyHash?: string | null; signer?: string | null} = {}) => ({
  nonce,
  resource: '/v1/echo',
  lamports: 1000n,
  bodyHash: 'h1',
  signer: null,
  issuedMs: 0,
  expiresMs: 100,
  ...over,
})

describe('PaymentStore (SQLite)', () => {
  it('counts the allowance against every key; exhausting either refuses', () => {
    const s = store()
    expect(s.reserveAllowance(['pk:a', 'ip:1'], 2, 0, DAY)?.left).toBe(1)
    expect(s.reserveAllowance(['pk:b', 'ip:1'], 2, 1, DAY)?.left).toBe(0)
    // the IP is used up, whatever the key
    expect(s.reserveAllowance(['pk:c', 'ip:1'], 2, 2, DAY)).toBeNull()
    // the key is used up, whatever the IP
    expect(s.reserveAllowance(['pk:a', 'ip:2'], 2, 3, DAY)?.left).toBe(0)
    expect(s.reserveAllowance(['pk:a', 'ip:3'], 2, 4, DAY)).toBeNull()
    // a refused reservation counted nothing
    expect(s.reserveAllowance(['ip:3'], 2, 5, DAY)?.left).toBe(1)
  })

  it('starts a fresh 24 h window, and gives back a released slot of the current window only', () => {
    const s = store()
    const first = s.reserveAllowance(['ip:1'], 1, 0, DAY)!
    expect(s.reserveAllowance(['ip:1'], 1, DAY - 1, DAY)).toBeNull()
    s.releaseAllowance(first)
    expect(s.reserveAllowance(['ip:1'], 1, DAY - 1, DAY)).not.toBeNull()
    const next = s.reserveAllowance(['ip:1'], 1, DAY, DAY)
    expect(next?.keys).toEqual([{key: 'ip:1', windowStartMs: DAY}])
    // releasing a slot of the old window does not touch the new one
    s.releaseAllowance(first)
    expect(s.reserveAllowance(['ip:1'], 1, DAY + 1, DAY)).toBeNull()
    expect(s.reserveAllowance(['ip:1'], 0, DAY + 1, DAY)).toBeNull()
  })

  it('lets one signature pay a nonce, once, and binds the proof to its call', () => {
    const s = store()
    s.issueNonce(nonceFor('n1', {lamports: 1000n, issuedMs: 0, expiresMs: 100}))
    expect(s.findNonces(['n1', 'nope', 'n1'])).toEqual([{nonce: 'n1', resource: '/v1/echo', lamports: 1000n, bodyHash: 'h1', signer: null, issuedMs: 0, expiresMs: 100, usedBy: null}])
    const claimed = s.claimProof(proof('sig1', 'n1'))
    expect(claimed).toMatchObject({claimed: true, proof: {state: 'reserved', bodyHash: 'h1'}})
    expect(s.findNonces(['n1'])[0].usedBy).toBe('sig1')
    expect(s.claimProof(proof('sig1', 'n1'))).toMatchObject({claimed: false, reason: 'proof_exists', proof: {signature: 'sig1'}})
    expect(s.claimProof(proof('sig2', 'n1'))).toEqual({claimed: false, reason: 'nonce_used'})
    expect(s.getProof('sig2')).toBeNull()
  })

  it('moves a proof reserved → verified (released) → reserved for the same call only → served', () => {
    const s = store()
    s.issueNonce(nonceFor('n1', {lamports: 1000n, issuedMs: 0, expiresMs: 100}))
    s.claimProof(proof('sig1', 'n1'))
    expect(s.reserveVerifiedProof('sig1', '/v1/echo', 'h1')).toBeNull() // already reserved
    s.releaseProof('sig1')
    expect(s.getProof('sig1')?.state).toBe('verified')
    expect(s.reserveVerifiedProof('sig1', '/v1/echo', 'other-body')).toBeNull()
    expect(s.reserveVerifiedProof('sig1', '/v1/echo', 'h1')?.state).toBe('reserved')
    s.serveProof('sig1', {expiresMs: 500, answer: {status: 200, body: '{"a":1}', headers: {'x-h': 'v'}}, answerBytes: 7})
    expect(s.getProof('sig1')).toMatchObject({state: 'served', expiresMs: 500, answer: {status: 200, body: '{"a":1}', headers: {'x-h': 'v'}}, answerBytes: 7})
    s.releaseProof('sig1') // a late release never un-spends a served proof
    expect(s.getProof('sig1')?.state).toBe('served')
  })

  it('debits credits only while the balance holds them', () => {
    const s = store()
    expect(s.reserveCredits('pk', 1)).toBeNull()
    s.bindPayer('payer', 'pk', 0, 'signature')
    s.recordDeposit({signature: 'd1', outcome: 'credited', nowMs: 0, payerAddress: 'payer', pubkey: 'pk', lamports: 2500n, lamportsPerCredit: 1000n})
    expect(s.balance('pk')).toBe(2)
    expect(s.reserveCredits('pk', 1)).toBe(1)
    expect(s.reserveCredits('pk', 2)).toBeNull()
    s.refundCredits('pk', 1)
    expect(s.balance('pk')).toBe(2)
  })

  it('credits a deposit once, keeps the lamports below one credit, and never credits a verified proof', () => {
    const s = store()
    const deposit = {signature: 'd1', outcome: 'credited' as const, nowMs: 0, payerAddress: 'payer', pubkey: 'pk', lamports: 1500n, lamportsPerCredit: 1000n}
    expect(s.recordDeposit(deposit)).toEqual({recorded: true, outcome: 'credited', credits: 1})
    expect(s.recordDeposit(deposit)).toEqual({recorded: false, outcome: 'credited', credits: 0})
    expect(s.recordDeposit({...deposit, signature: 'd2', lamports: 500n})).toMatchObject({credits: 1})
    expect(s.balance('pk')).toBe(2)
    s.issueNonce(nonceFor('n1', {lamports: 1000n, issuedMs: 0, expiresMs: 100}))
    s.claimProof(proof('sig1', 'n1'))
    expect(s.recordDeposit({...deposit, signature: 'sig1'})).toEqual({recorded: true, outcome: 'per_call', credits: 0})
    expect(s.balance('pk')).toBe(2)
    // and a credited deposit is never accepted as a proof
    s.issueNonce(nonceFor('n2', {lamports: 1000n, issuedMs: 0, expiresMs: 100}))
    expect(s.claimProof(proof('d1', 'n2'))).toEqual({claimed: false, reason: 'credited_deposit'})
    expect(s.depositSeen('d1')).toBe(true)
    expect(s.depositSeen('d9')).toBe(false)
  })

  it('binds a payer address to the first key that proves control; a later proof for another key is refused', () => {
    const s = store()
    expect(s.getBinding('payer')).toBeNull()
    expect(s.bindPayer('payer', 'pk1', 5, 'signature')).toEqual({bound: true, binding: {payerAddress: 'payer', pubkey: 'pk1', boundMs: 5, provenBy: 'signature'}})
    expect(s.bindPayer('payer', 'pk1', 9, 'memo')).toEqual({bound: true, binding: {payerAddress: 'payer', pubkey: 'pk1', boundMs: 5, provenBy: 'signature'}})
    expect(s.bindPayer('payer', 'pk2', 9, 'signature')).toEqual({bound: false, holder: 'pk1'})
    s.bindPayer('payer2', 'pk1', 7, 'memo')
    expect(s.bindingsOf('pk1').map((b) => b.payerAddress)).toEqual(['payer', 'payer2'])
    expect(s.bindings()).toHaveLength(2)
    expect(s.getBinding('payer2')?.provenBy).toBe('memo')
  })

  it('keeps payer challenges: the latest per (address, key), by nonce, and the oldest issue time', () => {
    const s = store()
    expect(s.oldestPayerChallengeMs()).toBeNull()
    expect(s.latestPayerChallenge('payer', 'pk1')).toBeNull()
    s.issuePayerChallenge({nonce: 'c1', payerAddress: 'payer', pubkey: 'pk1', issuedMs: 10, expiresMs: 20})
    s.issuePayerChallenge({nonce: 'c2', payerAddress: 'payer', pubkey: 'pk1', issuedMs: 30, expiresMs: 40})
    s.issuePayerChallenge({nonce: 'c3', payerAddress: 'payer', pubkey: 'pk2', issuedMs: 35, expiresMs: 45})
    expect(s.latestPayerChallenge('payer', 'pk1')?.nonce).toBe('c2')
    expect(s.findPayerChallenges(['c3', 'nope', 'c1']).map((c) => c.nonce)).toEqual(['c3', 'c1'])
    expect(s.oldestPayerChallengeMs()).toBe(10)
    s.purge({windowsStartedBeforeMs: 0, noncesExpiredBeforeMs: 21, answersExpiredBeforeMs: 0})
    expect(s.findPayerChallenges(['c1', 'c2'])).toHaveLength(1)
    expect(s.oldestPayerChallengeMs()).toBe(30)
  })

  it('drops a stored answer once its retry window is over, keeping the spent proof', () => {
    const s = store()
    s.issueNonce(nonceFor('n1'))
    s.claimProof(proof('sig1', 'n1'))
    s.serveProof('sig1', {expiresMs: 500, answer: {status: 200, body: '1'}, answerBytes: 1})
    s.purge({windowsStartedBeforeMs: 0, noncesExpiredBeforeMs: 0, answersExpiredBeforeMs: 500})
    expect(s.getProof('sig1')?.answer).toEqual({status: 200, body: '1'})
    s.purge({windowsStartedBeforeMs: 0, noncesExpiredBeforeMs: 0, answersExpiredBeforeMs: 501})
    expect(s.getProof('sig1')).toMatchObject({state: 'served', answer: null, answerBytes: 1})
  })

  it('migrates a version-1 database: old nonces keep no body or signer, old bindings are unproven and a proof replaces them', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mesh-agent-store-v1-'))
    dirs.push(dataDir)
    const db = openSqlite({dataDir})
    opened.push(db)
    migrateSqlite(db, AGENT_PAYMENTS_MIGRATIONS.filter((step) => step.version === 1))
    db.prepare(`INSERT INTO agent_pay_nonces (nonce, resource, lamports, issued_ms, expires_ms) VALUES ('old', '/v1/echo', '1000', 0, 100)`).run()
    db.prepare(`INSERT INTO agent_pay_bindings (payer_address, pubkey, bound_ms) VALUES ('payer', 'squatter', 0)`).run()
    const s = createSqlitePaymentStore(db)
    expect(s.findNonces(['old'])[0]).toMatchObject({bodyHash: null, signer: null})
    expect(s.getBinding('payer')).toEqual({payerAddress: 'payer', pubkey: 'squatter', boundMs: 0, provenBy: null})
    expect(s.bindPayer('payer', 'owner', 50, 'signature')).toMatchObject({bound: true, binding: {pubkey: 'owner', provenBy: 'signature'}})
  })

  it('purges ended windows and long-expired unused nonces, never a used one', () => {
    const s = store()
    s.reserveAllowance(['ip:1'], 1, 0, DAY)
    s.issueNonce(nonceFor('old', {lamports: 1n, issuedMs: 0, expiresMs: 10}))
    s.issueNonce(nonceFor('paid', {lamports: 1n, issuedMs: 0, expiresMs: 10}))
    s.claimProof(proof('sig', 'paid'))
    s.purge({windowsStartedBeforeMs: 1, noncesExpiredBeforeMs: 11, answersExpiredBeforeMs: 0})
    expect(s.reserveAllowance(['ip:1'], 1, 2, DAY)).not.toBeNull()
    expect(s.findNonces(['old', 'paid']).map((n) => n.nonce)).toEqual(['paid'])
  })

  it('keeps everything across a reopen of the same data dir; reserved proofs come back verified', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mesh-agent-store-'))
    dirs.push(dataDir)
    const first = store(dataDir)
    first.reserveAllowance(['ip:1'], 1, 0, DAY)
    first.issueNonce(nonceFor('n1', {lamports: 1000n, issuedMs: 0, expiresMs: 100}))
    first.claimProof(proof('sig1', 'n1'))
    first.bindPayer('payer', 'pk', 0, 'signature')
    first.recordDeposit({signature: 'd1', outcome: 'credited', nowMs: 0, payerAddress: 'payer', pubkey: 'pk', lamports: 3000n, lamportsPerCredit: 1000n})
    first.setCursor('d1')
    opened.shift()!.close()

    const second = store(dataDir)
    expect(second.reserveAllowance(['ip:1'], 1, 1, DAY)).toBeNull()
    expect(second.findNonces(['n1'])[0].usedBy).toBe('sig1')
    expect(second.releaseStaleReservations()).toBe(1)
    expect(second.getProof('sig1')?.state).toBe('verified')
    expect(second.bindingsOf('pk')).toHaveLength(1)
    expect(second.balance('pk')).toBe(3)
    expect(second.depositSeen('d1')).toBe(true)
    expect(second.getCursor()).toBe('d1')
  })
})
