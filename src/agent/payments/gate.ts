/**
 * `createPayments`: the PaymentGate of pay-per-call in lamports on Solana
 * (spec: Paid call table, Pay-per-call wire flow, prepaid alternative;
 * DECISIONS: Paid calls, RPC failures, Free allowance; AGENT-KIT
 * "Pay-per-call").
 *
 * admit() decides in the order of the spec's table: a call with
 * `X-Payment-Proof` takes the proof path (issue 18: a proof buys one answer,
 * replayed to its retries); otherwise the free allowance (pubkey and IP),
 * then the signed caller's prepaid credit, then a 402 with a fresh nonce
 * bound to the call. What pays is reserved at admit and committed or given
 * back when the handler has answered.
 */
import {MeshError} from '../../lib/errors.js'
import {openSqlite, type SqliteDatabase} from '../../store/sqlite.js'
import {createChainClient} from '../solana/chain-client.js'
import {createSqlitePaymentStore} from '../store/sqlite.js'
import {issueChallenge} from './challenge.js'
import {ALLOWANCE_WINDOW_MS, NONCE_RETENTION_MS} from './constants.js'
import {createHold} from './hold.js'
import {resolvePaymentsOptions, type CreatePaymentsOptions} from './options.js'
import {scanDeposits, type DepositScan, type PrepaidContext} from './prepaid.js'
import {admitWithProof, type ProofContext} from './proof.js'
import {createRunningProofs} from './running-proofs.js'
import {topup} from './topup.js'
import type {GateDecision, PaidCall, PaymentGate, TopupRequest} from './types.js'

/** The gate createPayments returns: a PaymentGate plus the deposit scan, callable directly (tests, operators). */
export interface Payments extends PaymentGate {
  /** Present when prepaid is on (`lamportsPerCredit` given or derived from `card`); binds only on proof of control (topup.ts). */
  topup?(request: TopupRequest): Promise<Record<string, unknown>>
  /** One pass of the deposit job; resolves {handled: 0, credited: 0} when prepaid is off. */
  scanDeposits(): Promise<DepositScan>
  /** Prepaid balance of a caller key, in credits. */
  credits(pubkey: string): number
  start(): void
  close(): Promise<void>
}

/**
 * Builds the gate. TypeError on a wrong option (an invalid wallet address,
 * no rpcUrl, a scan interval outside 1–5 minutes, both dataDir and db).
 */
export function createPayments(options: CreatePaymentsOptions): Payments {
  const config = resolvePaymentsOptions(options)
  const db: SqliteDatabase = config.db ?? openSqlite({dataDir: config.dataDir})
  const ownsDb = config.db === undefined
  const store = createSqlitePaymentStore(db)
  // After a restart no handler is running: a proof left reserved by a crash is usable again for its call.
  store.releaseStaleReservations()
  const chain = createChainClient({rpcUrl: config.rpcUrl, timeoutMs: config.rpcTimeoutMs})
  const proofContext: ProofContext = {config, store, chain, running: createRunningProofs()}
  const lamportsPerCredit = config.lamportsPerCredit
  const prepaid: PrepaidContext | null = lamportsPerCredit === null ? null : {config: {...config, lamportsPerCredit}, store, chain}

  let timer: NodeJS.Timeout | undefined
  let scanning: Promise<DepositScan> | undefined
  let closed = false

  function runScan(): Promise<DepositScan> {
    if (!prepaid) return Promise.resolve({handled: 0, credited: 0})
    // One scan at a time: the periodic job and a direct call share it.
    scanning ??= scanDeposits(prepaid).finally(() => {
      scanning = undefined
    })
    return scanning
  }

  async function tick() {
    const nowMs = config.clock()
    store.purge({windowsStartedBeforeMs: nowMs - ALLOWANCE_WINDOW_MS, noncesExpiredBeforeMs: nowMs - NONCE_RETENTION_MS, answersExpiredBeforeMs: nowMs})
    try {
      await runScan()
    } catch (error) {
      config.logger.warn('prepaid deposit scan failed; the next one retries', {code: (error as {code?: string}).code ?? 'error'})
    }
  }

  function admitUnpaid(call: PaidCall): GateDecision {
    const {pubkey, ip} = call.caller
    // DECISIONS Free allowance: counted against the pubkey and the IP; unsigned callers by IP alone.
    const keys = pubkey ? [`pk:${pubkey}`, `ip:${ip}`] : [`ip:${ip}`]
    const grant = store.reserveAllowance(keys, config.freePerDay, config.clock(), ALLOWANCE_WINDOW_MS)
    if (grant) {
      return {kind: 'admitted', hold: createHold({via: 'allowance', allowanceLeft: grant.left}, () => {}, () => store.releaseAllowance(grant))}
    }
    // issue 18: a v1 signature may be another agent's call forwarded here; it never spends the key's credit.
    if (prepaid && pubkey && call.caller.audienceBound === true) {
      // One credit per call; a skill priced above one credit spends as many as its price needs.
      const units = Number((call.lamports + prepaid.config.lamportsPerCredit - 1n) / prepaid.config.lamportsPerCredit) || 1
      const left = store.reserveCredits(pubkey, units)
      if (left !== null) {
        return {kind: 'admitted', hold: createHold({via: 'credit', creditsLeft: left}, () => {}, () => store.refundCredits(pubkey, units))}
      }
    }
    return {kind: 'challenge', challenge: issueChallenge(config, store, call, {reason: 'payment_required'})}
  }

  const gate: Payments = {
    async admit(call) {
      if (closed) throw new MeshError('unavailable', 'agent_stopping', 'The agent is stopping; retry shortly', {details: {retry_after: 5}})
      if (call.proof !== null && call.proof !== '') return admitWithProof(proofContext, call, call.proof)
      return admitUnpaid(call)
    },
    scanDeposits: runScan,
    credits: (pubkey) => store.balance(pubkey),
    start() {
      if (timer || closed) return
      void tick()
      timer = setInterval(() => void tick(), config.topupIntervalMs)
      timer.unref()
    },
    async close() {
      if (closed) return
      closed = true
      clearInterval(timer)
      await scanning?.catch(() => {})
      if (ownsDb) db.close()
    },
  }
  if (prepaid) gate.topup = async (request) => topup(prepaid, request)
  return gate
}
