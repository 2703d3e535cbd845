/**
 * A payment challenge for people (`mesh call` on a 402) and for machines
 * (`--json`): the price in lamports and SOL, where to pay, the memo, the
 * Solana Pay URI and the exact command that retries with the proof.
 */
import {printable} from '../printable.js'
import type {PaymentChallenge} from './challenge.js'

/** The challenge as JSON (lamports as a string: JSON has no bigint). */
export function challengeJson(challenge: PaymentChallenge) {
  return {
    network: challenge.network,
    address: challenge.address,
    lamports: challenge.lamports.toString(),
    sol: challenge.sol,
    nonce: challenge.nonce,
    resource: challenge.resource,
    hint: challenge.hint,
    pay_url: challenge.payUrl,
    offer: challenge.offer,
  }
}

export interface ChallengeTextOptions {
  /** What was called, e.g. `translate at https://agent.example`. */
  called: string
  /** The retry command, `<signature>` standing for the proof. */
  retry: string
  /** A proof was sent and refused. */
  proofRefused: boolean
}

/** The readable lines of a 402 (printable: every value came from the agent). */
export function formatChallenge(challenge: PaymentChallenge, options: ChallengeTextOptions): string[] {
  const price = `${challenge.lamports} lamports (${challenge.sol} SOL)`
  const lines = [
    options.proofRefused
      ? `Payment required: the proof was not accepted for ${options.called}${challenge.hint ? ` (${challenge.hint})` : ''}; a new challenge follows.`
      : `Payment required: ${options.called} costs ${price}.`,
    `  network  ${challenge.network}`,
    `  pay to   ${challenge.address}`,
    `  amount   ${price}`,
    `  memo     ${challenge.nonce}   (the nonce: put it in the transaction's memo)`,
    `  pay URI  ${challenge.payUrl}`,
  ]
  if (challenge.hint && !options.proofRefused) lines.push(`  hint     ${challenge.hint}`)
  lines.push('Pay it (any wallet that opens the pay URI), then retry with the transaction signature:', `  ${options.retry}`)
  return lines.map(printable)
}
