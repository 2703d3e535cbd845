/**
 * Solana Pay transfer-request URIs, the `chainPayUrl` of a 402 (DECISIONS:
 * Paid calls, chainPayUrl): the agent writes them into its challenge and a
 * caller builds the same one when the agent sent none, so both ends share
 * this one writer.
 */
import {lamportsToSol} from './agent-card.js'

/** The Solana Pay URI scheme. */
export const SOLANA_PAY_SCHEME = 'solana:'

export interface SolanaPayRequest {
  /** The wallet to pay (base58 address). */
  recipient: string
  /** Integer lamports; written as a SOL decimal, exact (no float rounding). */
  lamports: bigint
  /** The memo the payer's wallet puts on the transaction: the issued nonce. */
  memo: string
  /** Who is asking to be paid, shown by wallets: the card's name. */
  label?: string
}

/**
 * `solana:<address>?amount=<SOL>&memo=<nonce>&label=<label>` per the Solana
 * Pay transfer-request spec: `amount` in SOL as a decimal, other values
 * percent-encoded with encodeURIComponent (URLSearchParams would write
 * spaces as `+`, which Solana Pay does not read as a space).
 */
export function solanaPayUrl(request: SolanaPayRequest): string {
  const params = [`amount=${lamportsToSol(request.lamports)}`, `memo=${encodeURIComponent(request.memo)}`]
  if (request.label) params.push(`label=${encodeURIComponent(request.label)}`)
  return `${SOLANA_PAY_SCHEME}${request.recipient}?${params.join('&')}`
}
