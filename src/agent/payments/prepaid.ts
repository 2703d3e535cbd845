/**
 * Prepaid credit (spec: prepaid alternative; AGENT-KIT "Prepaid"): the
 * deposit scan lists new wallet transactions (`getSignaturesForAddress`
 * until the cursor, then `getTransaction` for each) and credits transfers
 * from bound payers, idempotent on the signature. A first deposit carrying
 * a topup's memo from the address it named proves control and binds it
 * (issue 18; the route itself is topup.ts).
 */
import type {ChainClient, SignatureEntry} from '../solana/chain-client.js'
import {SIGNATURES_PAGE_LIMIT} from '../solana/constants.js'
import {blockTimeMs, memosOf, nativeTransfers, type NativeTransfer, type ParsedTransaction} from '../solana/transaction.js'
import type {Binding, DepositOutcome, PaymentStore} from '../store/store.js'
import {BINDING_CLOCK_SLACK_MS, MAX_SCAN_PAGES} from './constants.js'
import type {PaymentsConfig} from './options.js'
import {nonceCandidates} from './proof.js'

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

/**
 * Issue 18: a deposit from the address a topup named, carrying that topup's
 * memo and landed while its challenge lived, proves control (the source of a
 * system transfer signs the transaction) and binds the address to the key
 * that asked; `bindings` is updated so the deposit is credited at once.
 */
function proveByMemo(context: PrepaidContext, memoNonces: string[], incoming: NativeTransfer[], landedMs: number, bindings: Map<string, Binding>) {
  for (const challenge of context.store.findPayerChallenges(memoNonces)) {
    if (!incoming.some((transfer) => transfer.source === challenge.payerAddress)) continue
    if (landedMs > challenge.expiresMs || landedMs < challenge.issuedMs - BINDING_CLOCK_SLACK_MS) continue
    const bound = context.store.bindPayer(challenge.payerAddress, challenge.pubkey, landedMs, 'memo')
    if (bound.bound) bindings.set(challenge.payerAddress, bound.binding)
  }
}

/** What a wallet transaction is, for prepaid purposes. */
function classify(context: PrepaidContext, tx: ParsedTransaction, bindings: Map<string, Binding>) {
  const {config, store} = context
  const incoming = nativeTransfers(tx).filter((transfer) => transfer.destination === config.wallet)
  if (tx.meta?.err != null || incoming.length === 0) return {outcome: 'ignored' as DepositOutcome}
  const memoNonces = nonceCandidates(memosOf(tx))
  // A memo naming an issued nonce is a pay-per-call payment: its proof buys a call, never credit too.
  if (store.findNonces(memoNonces).length > 0) return {outcome: 'per_call' as DepositOutcome}
  const landedMs = blockTimeMs(tx)
  proveByMemo(context, memoNonces, incoming, landedMs ?? config.clock(), bindings)
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
  // A binding from before proofs of control were asked (provenBy null) earns nothing: it may be a squatter's.
  const bindings = store.bindings().filter((binding) => binding.provenBy !== null)
  const oldestChallengeMs = store.oldestPayerChallengeMs()
  // Nobody bound and no proof of control awaited: nothing could be credited, so the node is not asked.
  if (bindings.length === 0 && oldestChallengeMs === null) return {handled: 0, credited: 0}
  const byPayer = new Map(bindings.map((binding) => [binding.payerAddress, binding]))
  const starts = [...bindings.map((binding) => binding.boundMs), ...(oldestChallengeMs === null ? [] : [oldestChallengeMs])]
  const oldestUsefulMs = Math.min(...starts) - BINDING_CLOCK_SLACK_MS
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
