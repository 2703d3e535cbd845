/**
 * Prepaid credit (spec: prepaid alternative; AGENT-KIT "Prepaid"):
 * `topup` binds a payer address to the signed caller's key, and the deposit
 * scan lists new wallet transactions (`getSignaturesForAddress` until the
 * cursor, then `getTransaction` for each) and credits transfers from bound
 * payers, idempotent on the signature.
 */
import {conflict, invalid} from '../../lib/errors.js'
import {isSolanaAddress} from '../solana/address.js'
import type {ChainClient, SignatureEntry} from '../solana/chain-client.js'
import {SIGNATURES_PAGE_LIMIT} from '../solana/constants.js'
import {blockTimeMs, memosOf, nativeTransfers, type ParsedTransaction} from '../solana/transaction.js'
import type {Binding, DepositOutcome, PaymentStore} from '../store/store.js'
import {BINDING_CLOCK_SLACK_MS, MAX_SCAN_PAGES} from './constants.js'
import {topupHint} from './hints.js'
import type {PaymentsConfig} from './options.js'
import {nonceCandidates} from './proof.js'
import type {TopupRequest} from './types.js'

export interface PrepaidContext {
  config: PaymentsConfig & {lamportsPerCredit: bigint}
  store: PaymentStore
  chain: ChainClient
}

/** What one scan did. */
export interface DepositScan {
  /** Wallet transactions handled (recorded as seen) by this scan. */
  handled: number
  /** Credits added by this scan. */
  credited: number
}

/** `POST /v1/topup {payer_address}`: binds and answers the deposit instructions. */
export function topup(context: PrepaidContext, request: TopupRequest): Record<string, unknown> {
  const {config, store} = context
  const payerAddress = request.payerAddress
  if (!isSolanaAddress(payerAddress)) {
    throw invalid('invalid_payer_address', 'payer_address must be a Solana address (base58, 32 bytes) you will pay from', {field: 'payer_address'})
  }
  if (payerAddress === config.wallet) throw invalid('invalid_payer_address', "payer_address is this agent's own wallet", {field: 'payer_address'})
  const bound = store.bindPayer(payerAddress, request.pubkey, config.clock())
  if (!bound.bound) {
    // First binding wins: otherwise anyone could redirect another payer's deposits to their own key.
    throw conflict('payer_address_taken', 'This payer address is already bound to another caller key; pay from an address of your own', {field: 'payer_address'})
  }
  return {
    payer_address: payerAddress,
    pay_to: config.wallet,
    network: config.network,
    lamports_per_credit: config.lamportsPerCredit.toString(),
    credits: store.balance(request.pubkey),
    scan_interval_seconds: Math.round(config.topupIntervalMs / 1000),
    hint: topupHint({payerAddress, wallet: config.wallet, network: config.network, lamportsPerCredit: config.lamportsPerCredit, scanIntervalMs: config.topupIntervalMs}),
  }
}

/** New wallet signatures since the cursor, oldest first; stops paging at the first one older than every binding. */
async function newSignatures(context: PrepaidContext, oldestUsefulMs: number): Promise<SignatureEntry[]> {
  const {config, store, chain} = context
  const until = store.getCursor() ?? undefined
  const entries: SignatureEntry[] = []
  let before: string | undefined
  for (let page = 0; page < MAX_SCAN_PAGES; page++) {
    const batch = await chain.getSignaturesForAddress(config.wallet, {until, before, limit: SIGNATURES_PAGE_LIMIT})
    let reachedOld = false
    for (const entry of batch) {
      // Older than every binding: nothing there can be credited (a binding never reaches back in time).
      if (entry.blockTime !== null && Number(entry.blockTime) * 1000 < oldestUsefulMs) {
        reachedOld = true
        break
      }
      entries.push(entry)
    }
    if (reachedOld || batch.length < SIGNATURES_PAGE_LIMIT) break
    before = batch[batch.length - 1].signature
  }
  return entries.reverse()
}

/** What a wallet transaction is, for prepaid purposes. */
function classify(context: PrepaidContext, tx: ParsedTransaction, bindings: Map<string, Binding>) {
  const {config, store} = context
  const incoming = nativeTransfers(tx).filter((transfer) => transfer.destination === config.wallet)
  if (tx.meta?.err != null || incoming.length === 0) return {outcome: 'ignored' as DepositOutcome}
  // A memo naming an issued nonce is a pay-per-call payment: its proof buys a call, never credit too.
  if (store.findNonces(nonceCandidates(memosOf(tx))).length > 0) return {outcome: 'per_call' as DepositOutcome}
  const landedMs = blockTimeMs(tx)
  for (const transfer of incoming) {
    const binding = bindings.get(transfer.source)
    if (!binding || (landedMs !== null && landedMs < binding.boundMs - BINDING_CLOCK_SLACK_MS)) continue
    const lamports = incoming.filter((other) => other.source === transfer.source).reduce((sum, other) => sum + other.lamports, 0n)
    return {outcome: 'credited' as DepositOutcome, binding, lamports}
  }
  return {outcome: 'unbound' as DepositOutcome}
}

/** One pass of the deposit job. Throws MeshError `unavailable` when the chain node fails; what was handled stays handled. */
export async function scanDeposits(context: PrepaidContext): Promise<DepositScan> {
  const {config, store, chain} = context
  const bindings = store.bindings()
  // Nobody bound: nothing could be credited, so the node is not asked.
  if (bindings.length === 0) return {handled: 0, credited: 0}
  const byPayer = new Map(bindings.map((binding) => [binding.payerAddress, binding]))
  const oldestUsefulMs = Math.min(...bindings.map((binding) => binding.boundMs)) - BINDING_CLOCK_SLACK_MS
  const scan: DepositScan = {handled: 0, credited: 0}
  for (const entry of await newSignatures(context, oldestUsefulMs)) {
    if (!store.depositSeen(entry.signature)) {
      const nowMs = config.clock()
      if (entry.err != null) {
        store.recordDeposit({signature: entry.signature, outcome: 'ignored', nowMs})
      } else {
        const tx = await chain.getTransaction(entry.signature)
        // Listed but not readable yet: stop here so the next scan starts from this one again.
        if (!tx) break
        const found = classify(context, tx, byPayer)
        const recorded = store.recordDeposit({
          signature: entry.signature,
          outcome: found.outcome,
          nowMs,
          payerAddress: found.binding?.payerAddress,
          pubkey: found.binding?.pubkey,
          lamports: found.lamports,
          lamportsPerCredit: config.lamportsPerCredit,
        })
        scan.credited += recorded.credits
        if (recorded.credits > 0) config.logger.info('prepaid deposit credited', {credits: recorded.credits, lamports: String(found.lamports)})
      }
      scan.handled += 1
    }
    store.setCursor(entry.signature)
  }
  return scan
}
