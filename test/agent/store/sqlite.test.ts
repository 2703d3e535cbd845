import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createSqlitePaymentStore} from '../../../src/agent/store/sqlite.js'
import type {PaymentStore} from '../../../src/agent/store/store.js'
import {openSqlite, type SqliteDatabase} from '../../../src/store/sqlite.js'

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
  lamports: 1000n,
  paidLamports: 1000n,
  nowMs: 10,
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
    s.issueNonce({nonce: 'n1', resource: '/v1/echo', lamports: 1000n, issuedMs: 0, expiresMs: 100})
    expect(s.findNonces(['n1', 'nope', 'n1'])).toEqual([{nonce: 'n1', resource: '/v1/echo', lamports: 1000n, issuedMs: 0, expiresMs: 100, usedBy: null}])
    const claimed = s.claimProof(proof('sig1', 'n1'))
    expect(claimed).toMatchObject({claimed: true, proof: {state: 'reserved', bodyHash: 'h1'}})
    expect(s.findNonces(['n1'])[0].usedBy).toBe('sig1')
    expect(s.claimProof(proof('sig1', 'n1'))).toMatchObject({claimed: false, reason: 'proof_exists', proof: {signature: 'sig1'}})
    expect(s.claimProof(proof('sig2', 'n1'))).toEqual({claimed: false, reason: 'nonce_used'})
    expect(s.getProof('sig2')).toBeNull()
  })

  it('moves a proof reserved → verified (released) → reserved for the same call only → served', () => {
    const s = store()
    s.issueNonce({nonce: 'n1', resource: '/v1/echo', lamports: 1000n, issuedMs: 0, expiresMs: 100})
    s.claimProof(proof('sig1', 'n1'))
    expect(s.reserveVerifiedProof('sig1', '/v1/echo', 'h1')).toBeNull() // already reserved
    s.releaseProof('sig1')
    expect(s.getProof('sig1')?.state).toBe('verified')
    expect(s.reserveVerifiedProof('sig1', '/v1/echo', 'other-body')).toBeNull()
    expect(s.reserveVerifiedProof('sig1', '/v1/echo', 'h1')?.state).toBe('reserved')
    s.serveProof('sig1', 500)
    expect(s.getProof('sig1')).toMatchObject({state: 'served', expiresMs: 500})
    s.releaseProof('sig1') // a late release never un-spends a served proof
    expect(s.getProof('sig1')?.state).toBe('served')
  })

  it('debits credits only while the balance holds them', () => {
    const s = store()
    expect(s.reserveCredits('pk', 1)).toBeNull()
    s.bindPayer('payer', 'pk', 0)
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
    s.issueNonce({nonce: 'n1', resource: '/v1/echo', lamports: 1000n, issuedMs: 0, expiresMs: 100})
    s.claimProof(proof('sig1', 'n1'))
    expect(s.recordDeposit({...deposit, signature: 'sig1'})).toEqual({recorded: true, outcome: 'per_call', credits: 0})
    expect(s.balance('pk')).toBe(2)
    // and a credited deposit is never accepted as a proof
    s.issueNonce({nonce: 'n2', resource: '/v1/echo', lamports: 1000n, issuedMs: 0, expiresMs: 100})
    expect(s.claimProof(proof('d1', 'n2'))).toEqual({claimed: false, reason: 'credited_deposit'})
    expect(s.depositSeen('d1')).toBe(true)
    expect(s.depositSeen('d9')).toBe(false)
  })

  it('binds a payer address to the first key that asks', () => {
    const s = store()
    expect(s.bindPayer('payer', 'pk1', 5)).toEqual({bound: true, binding: {payerAddress: 'payer', pubkey: 'pk1', boundMs: 5}})
    expect(s.bindPayer('payer', 'pk1', 9)).toEqual({bound: true, binding: {payerAddress: 'payer', pubkey: 'pk1', boundMs: 5}})
    expect(s.bindPayer('payer', 'pk2', 9)).toEqual({bound: false, holder: 'pk1'})
    s.bindPayer('payer2', 'pk1', 7)
    expect(s.bindingsOf('pk1').map((b) => b.payerAddress)).toEqual(['payer', 'payer2'])
    expect(s.bindings()).toHaveLength(2)
  })

  it('purges ended windows and long-expired unused nonces, never a used one', () => {
    const s = store()
    s.reserveAllowance(['ip:1'], 1, 0, DAY)
    s.issueNonce({nonce: 'old', resource: '/v1/echo', lamports: 1n, issuedMs: 0, expiresMs: 10})
    s.issueNonce({nonce: 'paid', resource: '/v1/echo', lamports: 1n, issuedMs: 0, expiresMs: 10})
    s.claimProof(proof('sig', 'paid'))
    s.purge({windowsStartedBeforeMs: 1, noncesExpiredBeforeMs: 11})
    expect(s.reserveAllowance(['ip:1'], 1, 2, DAY)).not.toBeNull()
    expect(s.findNonces(['old', 'paid']).map((n) => n.nonce)).toEqual(['paid'])
  })

  it('keeps everything across a reopen of the same data dir; reserved proofs come back verified', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mesh-agent-store-'))
    dirs.push(dataDir)
    const first = store(dataDir)
    first.reserveAllowance(['ip:1'], 1, 0, DAY)
    first.issueNonce({nonce: 'n1', resource: '/v1/echo', lamports: 1000n, issuedMs: 0, expiresMs: 100})
    first.claimProof(proof('sig1', 'n1'))
    first.bindPayer('payer', 'pk', 0)
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
