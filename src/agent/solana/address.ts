/** Solana addresses as the agent accepts them (transaction signatures: src/client/agent/transaction-signature.ts, shared with callers). */
import {isAddress} from '@solana/addresses'

/** True for a base58 32-byte Solana address (the library's own check, not a copy). */
export function isSolanaAddress(value: unknown): value is string {
  return typeof value === 'string' && isAddress(value)
}
