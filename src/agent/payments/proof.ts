/**
 * A call carrying `X-Payment-Proof` (spec: Paid call table rows 3–5,
 * Pay-per-call wire flow 4; DECISIONS: Paid calls, RPC failures; issue 18:
 * one payment buys one answer).
 *
 * A proof pays for the call its nonce was issued for: the same skill and
 * price, the same body hash, and the same signer when the 402 went to a
 * signed caller. Anyone can read the signature on chain, but nobody can spend
 * it on another call. A signature seen before is decided from the store
 * alone (no chain call): a retry of the paid call gets the stored answer, a
 * request while the paid call runs waits for it, anything else is refused.
 * A new signature is looked up on the chain, checked, and claimed together
 * with its nonce in one transaction, so two racing requests cannot both run.
 */
import {isTransactionSignature} from '../../client/agent/transaction-signature.js'
import {conflict} from '../../lib/errors.js'
import {checkPayment} from '../solana/check-payment.js'
import type {ChainClient} from '../solana/chain-client.js'
import {blockTimeMs, memosOf} from '../solana/transaction.js'
import type {NonceRecord, PaymentStore, ProofRecord} from '../store/store.js'
import {issueChallenge, type ChallengeDetails} from './challenge.js'
import {HEX_RUN, MAX_NONCE_CANDIDATES} from './constants.js'
import {createHold} from './hold.js'
import type {CallMismatch, PaymentRefusal} from './hints.js'
import type {PaymentsConfig} from './options.js'
import type {RunningProofs} from './running-proofs.js'
import type {GateDecision, PaidCall} from './types.js'

export interface ProofContext {
  config: PaymentsConfig
  store: PaymentStore
  chain: ChainClient
  running: RunningProofs
}

/** A decision, or "the paid call is running here: wait for it, then decide again". */
type Decided = GateDecision | {wait: Promise<void>}

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

/** What a nonce or a proof is bound to. */
interface BoundCall {
  resource: string
  lamports: bigint
  /** null: a nonce issued before bodies were bound (agent_payments migration 2), bound to skill and price only. */
  bodyHash: string | null
  /** null: the 402 went to an unsigned caller, so no key is bound and the body is the whole call. */
  signer: string | null
}

/** How `call` differs from the call a nonce or proof is bound to; null when it is that call. */
export function callMismatch(bound: BoundCall, call: PaidCall): CallMismatch | null {
  if (bound.resource !== call.resource || bound.lamports !== call.lamports) return 'skill'
  if (bound.bodyHash !== null && bound.bodyHash !== call.bodyHash) return 'body'
  if (bound.signer !== null && bound.signer !== call.caller.pubkey) return 'signer'
  return null
}

const refuse = (context: ProofContext, call: PaidCall, details: ChallengeDetails): GateDecision => ({
  kind: 'challenge',
  challenge: issueChallenge(context.config, context.store, call, details),
})

/** The hold of a proof whose call now runs: commit keeps the answer (up to the cap) for retries; either way waiters are woken. */
function proofHold(context: ProofContext, signature: string): GateDecision {
  const {config, store, running} = context
  const done = running.start(signature)
  const hold = createHold(
    {via: 'proof', signature},
    (answer) => {
      try {
        const answerBytes = answer ? Buffer.byteLength(answer.body) : null
        const kept = answer && answerBytes !== null && answerBytes <= config.maxStoredAnswerBytes ? answer : null
        // spec: "signature cached for idempotency" — the retry window starts when the call is served.
        store.serveProof(signature, {expiresMs: config.clock() + config.nonceTtlMs, answer: kept, answerBytes})
      } finally {
        done()
      }
    },
    () => {
      try {
        store.releaseProof(signature)
      } finally {
        done()
      }
    },
  )
  return {kind: 'admitted', hold}
}

/** A signature the store already knows: decided without the chain. */
function fromKnownProof(context: ProofContext, call: PaidCall, proof: ProofRecord): Decided {
  const {config, store, running} = context
  // Issue 18: a proof buys one answer, for the call its nonce was issued to; anything else is another call.
  const mismatch = callMismatch(proof, call)
  if (mismatch) return refuse(context, call, {reason: 'proof_used', mismatch})
  if (proof.state === 'served') {
    if (proof.expiresMs === null || config.clock() >= proof.expiresMs) return refuse(context, call, {reason: 'entitlement_expired'})
    if (proof.answer) return {kind: 'replay', answer: proof.answer, signature: proof.signature}
    throw conflict(
      'answer_not_kept',
      proof.answerBytes === null
        ? 'This proof already bought its answer, and the agent did not keep it for retries; one payment buys one answer: pay again for another'
        : `This proof already bought its answer (${proof.answerBytes} bytes), which is above the ${config.maxStoredAnswerBytes} bytes the agent keeps for retries: ` +
            'it was sent to the request that paid and cannot be sent again; pay again for another',
    )
  }
  // verified: paid, and an earlier run of this same call failed — the payment still buys it.
  if (proof.state === 'verified' && store.reserveVerifiedProof(proof.signature, call.resource, call.bodyHash)) return proofHold(context, proof.signature)
  // reserved: the paid call is running. Here: wait for its answer. In another process: ask to retry.
  const wait = running.whenDone(proof.signature)
  if (wait) return {wait}
  throw conflict('payment_in_progress', 'A call paid by this proof is running; retry when it has answered (the proof is not spent unless it succeeds)', {
    details: {retry_after: 1},
  })
}

/** The most telling nonce failure when the memo holds issued nonces but none fits this call. */
function nonceRefusal(nonces: NonceRecord[], call: PaidCall, signature: string, paidAtMs: number): ChallengeDetails | null {
  const forThisCall = nonces.filter((nonce) => callMismatch(nonce, call) === null)
  if (forThisCall.some((nonce) => nonce.usedBy !== null && nonce.usedBy !== signature)) return {reason: 'nonce_used'}
  if (forThisCall.some((nonce) => paidAtMs > nonce.expiresMs)) return {reason: 'nonce_expired'}
  const mismatches = nonces.map((nonce) => callMismatch(nonce, call))
  if (mismatches.includes('signer')) return {reason: 'nonce_other_signer'}
  if (mismatches.includes('body')) return {reason: 'nonce_other_body'}
  if (nonces.length > 0) return {reason: 'nonce_other_call', nonceResource: nonces[0].resource}
  return null
}

/** A signature the store does not know yet: checked on the chain, then claimed for this call. */
async function fromChain(context: ProofContext, call: PaidCall, signature: string): Promise<Decided> {
  const {config, store, chain} = context
  const tx = await chain.getTransaction(signature)
  const nowMs = config.clock()
  // A nonce counts as unexpired when the transaction landed before it expired: a
  // payer is not punished for a slow proof, and the nonce still pays only once.
  const paidAtMs = (tx && blockTimeMs(tx)) ?? nowMs
  const nonces = tx ? store.findNonces(nonceCandidates(memosOf(tx))) : []
  const usable = nonces.find((nonce) => callMismatch(nonce, call) === null && (nonce.usedBy === null || nonce.usedBy === signature) && paidAtMs <= nonce.expiresMs)
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
    signer: usable!.signer,
    lamports: call.lamports,
    paidLamports: check.paid,
    nowMs,
  })
  if (claim.claimed) return proofHold(context, signature)
  if (claim.reason === 'proof_exists') return fromKnownProof(context, call, claim.proof)
  return refuse(context, call, {reason: claim.reason})
}

/**
 * The proof path of `admit`. Resolves admitted (run the handler), replay (the
 * stored answer), or a 402; throws MeshError `unavailable` (503) when the
 * chain node cannot be asked, `conflict` (409) when the answer was bought but
 * not kept, or the paid call runs in another process.
 */
export async function admitWithProof(context: ProofContext, call: PaidCall, signature: string): Promise<GateDecision> {
  if (!isTransactionSignature(signature)) return refuse(context, call, {reason: 'invalid_proof'})
  for (;;) {
    const known = context.store.getProof(signature)
    const decided = known ? fromKnownProof(context, call, known) : await fromChain(context, call, signature)
    if (!('wait' in decided)) return decided
    // Concurrent requests with one proof run the handler once: the others wait, then replay its answer.
    await decided.wait
  }
}
