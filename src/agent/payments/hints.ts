/**
 * The 402 `hint` sentences (spec Payment challenge: "human-readable
 * instruction"). Each names what to do; after a failed proof it first says
 * which check failed, so a caller (or a person reading `mesh call`) knows
 * whether to wait, pay again or fix the memo.
 */
import {lamportsToSol, PAYMENT_PROOF_HEADER} from '../../protocol/agent-card.js'
import type {PaymentCheckFailure} from '../solana/check-payment.js'
import {TOPUP_ROUTE} from './constants.js'

/** Why a call got a 402: unpaid, or the proof check that failed. */
export type PaymentRefusal =
  | 'payment_required'
  /** X-Payment-Proof is not shaped like a transaction signature. */
  | 'invalid_proof'
  | PaymentCheckFailure
  /** The memo's nonce was issued for another skill or price. */
  | 'nonce_other_call'
  /** The memo's nonce was issued for this skill with another body (issue 18: a nonce is bound to its call). */
  | 'nonce_other_body'
  /** The memo's nonce was issued to a signed caller, and this request is not signed by that key. */
  | 'nonce_other_signer'
  /** Another transaction already paid the memo's nonce. */
  | 'nonce_used'
  /** The transaction landed after the memo's nonce expired. */
  | 'nonce_expired'
  /** This proof already paid for another call (another skill, body or signer). */
  | 'proof_used'
  /** This proof bought this call's answer, and the retry window (when the answer is kept) is over. */
  | 'entitlement_expired'
  /** The deposit scan credited this transaction as prepaid. */
  | 'credited_deposit'

export interface HintFacts {
  reason: PaymentRefusal
  wallet: string
  network: string
  lamports: bigint
  nonce: string
  nonceTtlMs: number
  freePerDay: number
  /** Prepaid credits are on (the topup route exists). */
  prepaid: boolean
  signed: boolean
  signature?: string
  /** For short_amount: what the transaction sent to the wallet. */
  paid?: bigint
  /** For nonce_other_call: the call that nonce was for. */
  nonceResource?: string
  /** For proof_used: what differs from the call the proof paid for. */
  mismatch?: CallMismatch
}

/** How a request differs from the call a nonce or proof is bound to. */
export type CallMismatch = 'skill' | 'body' | 'signer'

const MISMATCH_WORDS: Record<CallMismatch, string> = {
  skill: 'another skill or price',
  body: 'another body',
  signer: 'another signer (the request that got the 402 was signed by another key, or this one is unsigned)',
}

const minutes = (ms: number) => {
  const value = Math.round((ms / 60_000) * 10) / 10
  return `${value} minute${value === 1 ? '' : 's'}`
}

/** What failed, as a clause after "The payment proof was refused: ". */
function refusalClause(facts: HintFacts): string {
  switch (facts.reason) {
    case 'invalid_proof':
      return `${PAYMENT_PROOF_HEADER} is not a transaction signature (base58 of 64 bytes)`
    case 'unconfirmed':
      return `transaction ${facts.signature} is not confirmed yet, or does not exist. If you sent it, do not pay again: retry this request with the same ${PAYMENT_PROOF_HEADER} in a few seconds`
    case 'failed':
      return 'the transaction failed on chain, so nothing was paid'
    case 'wrong_destination':
      return `the transaction sends no SOL to this agent's wallet ${facts.wallet}`
    case 'short_amount':
      return `the transaction sends ${facts.paid ?? 0n} lamports to the wallet but this call costs ${facts.lamports}`
    case 'missing_memo':
      return 'the transaction has no memo; the memo must contain the nonce of a challenge'
    case 'memo_mismatch':
      return 'the transaction memo holds no nonce this agent issued (another nonce, or none)'
    case 'nonce_other_call':
      return `the nonce in the memo was issued for another call (${facts.nonceResource ?? 'another skill'} or another price)`
    case 'nonce_other_body':
      return 'the nonce in the memo was issued for this skill with another body; a nonce pays only for the request that got its 402, so send exactly that body (the same bytes)'
    case 'nonce_other_signer':
      return 'the nonce in the memo was issued to a signed caller and this request is not signed by that key; send the paid request signed by the key that got the 402'
    case 'nonce_used':
      return 'the nonce in the memo was already paid by another transaction'
    case 'nonce_expired':
      return `the nonce in the memo had expired when the transaction was made (nonces last ${minutes(facts.nonceTtlMs)})`
    case 'proof_used':
      return `this transaction paid for another call (${MISMATCH_WORDS[facts.mismatch ?? 'body']}); one payment buys one answer, for the request its nonce was issued to`
    case 'entitlement_expired':
      return `this transaction already bought this call's answer, which is kept for retries only ${minutes(facts.nonceTtlMs)}; that window is over`
    case 'credited_deposit':
      return 'this transaction was credited as a prepaid deposit, so it cannot also pay a call'
    case 'payment_required':
      return ''
  }
}

/** The whole hint: why, then how to pay, then the prepaid alternative. */
export function challengeHint(facts: HintFacts): string {
  const why =
    facts.reason !== 'payment_required'
      ? `The payment proof was refused: ${refusalClause(facts)}.`
      : facts.freePerDay > 0
        ? `The free allowance (${facts.freePerDay} calls a day) is used up for this caller.`
        : 'This skill is paid per call.'
  const how =
    `${facts.reason === 'unconfirmed' ? 'To pay anew instead: pay' : 'Pay'} ${lamportsToSol(facts.lamports)} SOL (${facts.lamports} lamports) to ${facts.wallet} on ${facts.network} ` +
    `with the memo ${facts.nonce} (chainPayUrl does this in a Solana Pay wallet), then send this same request again with ` +
    `${PAYMENT_PROOF_HEADER}: <transaction signature>. The nonce is valid for ${minutes(facts.nonceTtlMs)}, for this skill and this exact body` +
    `${facts.signed ? ', signed by the same key' : ''}; a retry with the same proof gets the same answer.`
  const prepaid = !facts.prepaid
    ? ''
    : facts.signed
      ? ` Or prepay: ${TOPUP_ROUTE} {"payer_address": "<your address>"} and each call spends one credit.`
      : ` Signed callers (Mesh-Sig) can also prepay with ${TOPUP_ROUTE}.`
  return `${why} ${how}${prepaid}`
}

/** What `topup` answers until the caller has proven control of the payer address (issue 18). */
export function payerChallengeHint(facts: {payerAddress: string; wallet: string; network: string; memo: string; expiresAt: string; ttlMs: number}): string {
  return (
    `${facts.payerAddress} is not bound to your key yet, and no deposit from it is credited to anyone until it is. Prove you control it, before ${facts.expiresAt} (${minutes(facts.ttlMs)}): ` +
    `sign challenge.message with the address's key (a wallet's signMessage: the message's UTF-8 bytes, no prefix) and send ${TOPUP_ROUTE} {"payer_address": "${facts.payerAddress}", "payer_signature": "<base58 signature>"} signed by this same key; ` +
    `or make your first deposit from ${facts.payerAddress} to ${facts.wallet} on ${facts.network} with the memo ${facts.memo}: it binds the address and is credited.`
  )
}

/** The deposit instructions `topup` answers once the address is bound to the caller's key. */
export function topupHint(facts: {payerAddress: string; wallet: string; network: string; lamportsPerCredit: bigint; scanIntervalMs: number}): string {
  return (
    `Send SOL from ${facts.payerAddress} to ${facts.wallet} on ${facts.network}, with no payment nonce in the memo. ` +
    `Every ${facts.lamportsPerCredit} lamports (${lamportsToSol(facts.lamportsPerCredit)} SOL) buy one credit, and a call spends one credit (a skill priced above one credit spends as many as its price needs); ` +
    `deposits are credited within ${minutes(facts.scanIntervalMs)} of confirming. Sign your calls (Mesh-Sig) with the key that made this request to spend them.`
  )
}
