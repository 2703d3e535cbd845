/**
 * The shape of a payment proof (spec: Payment challenge — `X-Payment-Proof`
 * is a transaction signature). Both ends check it: the caller before sending
 * (`callAgent`, `mesh call --proof`), the agent before any chain call, so a
 * garbage proof answers a 402 naming it rather than the node's "invalid
 * param" (which would read as the node failing: a 503).
 */
import {base58Decode} from '../../identity/base58.js'
import {PROOF_SIGNATURE_BYTES, TRANSACTION_SIGNATURE_PATTERN} from './constants.js'

/** True for a Solana transaction signature: base58 of exactly 64 bytes. */
export function isTransactionSignature(value: unknown): value is string {
  if (typeof value !== 'string' || !TRANSACTION_SIGNATURE_PATTERN.test(value)) return false
  try {
    return base58Decode(value).length === PROOF_SIGNATURE_BYTES
  } catch {
    return false
  }
}
