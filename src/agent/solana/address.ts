/** Solana addresses and transaction signatures as the agent accepts them. */
import {isAddress} from '@solana/addresses'
import {SIGNATURE_PATTERN} from './constants.js'

/** True for a base58 32-byte Solana address (the library's own check, not a copy). */
export function isSolanaAddress(value: unknown): value is string {
  return typeof value === 'string' && isAddress(value)
}

/**
 * True for something shaped like a transaction signature. Checked before any
 * chain call so a garbage `X-Payment-Proof` answers a 402 naming it, not the
 * node's "invalid param" (which would read as the node failing: a 503).
 */
export function isTransactionSignature(value: unknown): value is string {
  return typeof value === 'string' && SIGNATURE_PATTERN.test(value)
}
