/**
 * A call carrying `X-Payment-Proof` (spec: Paid call table rows 3–5,
 * Pay-per-call wire flow 4; DECISIONS: Paid calls, RPC failures).
 *
 * A signature seen before is decided from the store alone (no chain call):
 * the same call within the retry window is served from its entitlement,
 * anything else is refused. A new signature is looked up on the chain,
 * checked, and claimed in one transaction together with its nonce, so two
 * racing requests cannot both spend it.
 */
import {isTransactionSignature} from '../../client/agent/transaction-signature.js'
import {conflict} from '../../lib/errors.js'
import {checkPayment} from '../solana/check-payment.js'
import type {ChainClient} from '../solana/chain-client.js'
import {blockTimeMs, memosOf} from '../solana/transaction.js'
import type {NonceRecord, PaymentStore, ProofRecord} from '../store/store.js'
import {issueChallenge, type ChallengeDetails} from './challenge.js'
import {HEX_RUN, MAX_NONCE_CANDIDATES} from './constants.js'
import {createHold, freeHold} from './hold.js'
import type {PaymentRefusal} from './hints.js'
import type {PaymentsConfig} from './options.js'
import type {GateDecision, PaidCall} from './types.js'

export interface ProofContext {
  config: PaymentsConfig
  store: PaymentStore
  chain: ChainClient
}

/** Every 32-character window of the memos' lowercase hex runs: the nonces a memo could contain (matched as written, like the checker). */
export function nonceCandidates(memos: string[]): string[] {
  const candidates = new Set<string>()
  for (const memo of memos) {
    for (const run of memo.match(HEX_RUN) ?? []) {
      for (let start = 0; start + 32 <= run.length && candidates.size < MAX_NONCE_CANDIDATES; start++) candidates.add(run.slice(start, start + 32))
    }
  }
  return [...candidates]
}

const refuse = (context: ProofContext, call: PaidCall, details: ChallengeDetails): GateDecision => ({
  kind: 'challenge',
  challenge: issueChallenge(context.config, context.store, call, details),
})

function proofHold(context: ProofContext, signature: string, via: 'proof') {
  const {config, store} = context
  return createHold(
    {via, signature},
    // spec: "signature cached for idempotency" — the retry window starts when the call is served.
    () => store.serveProof(signature, config.clock() + config.nonceTtlMs),
    () => store.releaseProof(signature),
  )
}

/** A signature the store already knows: decided without the chain. */
function fromKnownProof(context: ProofContext, call: PaidCall, proof: ProofRecord): GateDecision {
  const {config, store} = context
  // DECISIONS Paid calls: a proof buys one call; another skill or body is another call.
  if (proof.resource !== call.resource || proof.bodyHash !== call.bodyHash) return refuse(context, call, {reason: 'proof_used'})
  if (proof.state === 'served') {
    if (proof.expiresMs !== null && config.clock() < proof.expiresMs) {
      return {kind: 'admitted', hold: freeHold({via: 'entitlement', signature: proof.signature})}
    }
    return refuse(context, call, {reason: 'entitlement_expired'})
  }
  // verified: paid, and an earlier run of this same call failed — the payment still buys it.
  if (proof.state === 'verified' && store.reserveVerifiedProof(proof.signature, call.resource, call.bodyHash)) {
    return {kind: 'admitted', hold: proofHold(context, proof.signature, 'proof')}
  }
  throw conflict('payment_in_progress', 'A call paid by this proof is running; retry when it has answered (the proof is not spent unless it succeeds)', {
    details: {retry_after: 1},
  })
}

/** The most telling nonce failure when the memo holds issued nonces but none fits this call. */
function nonceRefusal(nonces: NonceRecord[], call: PaidCall, signature: string, paidAtMs: number): ChallengeDetails | null {
  const forThisCall = nonces.filter((nonce) => nonce.resource === call.resource && nonce.lamports === call.lamports)
  if (forThisCall.some((nonce) => nonce.usedBy !== null && nonce.usedBy !== signature)) return {reason: 'nonce_used'}
  if (forThisCall.some((nonce) => paidAtMs > nonce.expiresMs)) return {reason: 'nonce_expired'}
  if (nonces.length > 0) return {reason: 'nonce_other_call', nonceResource: nonces[0].resource}
  return null
}

/** The proof path of `admit`. Throws MeshError `unavailable` (503) when the chain node cannot be asked. */
export async function admitWithProof(context: ProofContext, call: PaidCall, signature: string): Promise<GateDecision> {
  const {config, store, chain} = context
  if (!isTransactionSignature(signature)) return refuse(context, call, {reason: 'invalid_proof'})
  const known = store.getProof(signature)
  if (known) return fromKnownProof(context, call, known)

  const tx = await chain.getTransaction(signature)
  const nowMs = config.clock()
  // A nonce counts as unexpired when the transaction landed before it expired: a
  // payer is not punished for a slow proof, and the nonce still pays only once.
  const paidAtMs = (tx && blockTimeMs(tx)) ?? nowMs
  const nonces = tx ? store.findNonces(nonceCandidates(memosOf(tx))) : []
  const usable = nonces.find(
    (nonce) =>
      nonce.resource === call.resource && nonce.lamports === call.lamports && (nonce.usedBy === null || nonce.usedBy === signature) && paidAtMs <= nonce.expiresMs,
  )
  const check = checkPayment(tx, {wallet: config.wallet, lamports: call.lamports, nonce: usable?.nonce ?? null})
  if (!check.ok) {
    const details: ChallengeDetails = {reason: check.failed as PaymentRefusal, paid: check.paid}
    return refuse(context, call, check.failed === 'memo_mismatch' ? (nonceRefusal(nonces, call, signature, paidAtMs) ?? details) : details)
  }

  const claim = store.claimProof({
    signature,
    nonce: usable!.nonce,
    resource: call.resource,
    bodyHash: call.bodyHash,
    lamports: call.lamports,
    paidLamports: check.paid,
    nowMs,
  })
  if (claim.claimed) return {kind: 'admitted', hold: proofHold(context, signature, 'proof')}
  if (claim.reason === 'proof_exists') return fromKnownProof(context, call, claim.proof)
  return refuse(context, call, {reason: claim.reason})
}
