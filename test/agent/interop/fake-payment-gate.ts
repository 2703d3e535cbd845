/**
 * A PaymentGate for interop tests that need a 402 but no chain: every call
 * without the one accepted proof gets a challenge shaped as the spec's
 * Payment challenge (the four X-Payment-* headers, `{x402Version, accepts,
 * hint}`), and a call carrying that proof is admitted. It implements the
 * real interface (src/agent/payments/types.ts), so the kit cannot tell.
 */
import {randomBytes} from 'node:crypto'
import type {GateDecision, PaidCall, PaymentGate} from '../../../src/agent/payments/types.js'
import {lamportsToSol, PAYMENT_HEADERS, X402_VERSION} from '../../../src/protocol/agent-card.js'

export interface FakePaymentGate extends PaymentGate {
  /** Every call the kit asked about, in order. */
  calls: PaidCall[]
  /** Every nonce issued, in order. */
  nonces: string[]
}

export interface FakePaymentGateOptions {
  network: string
  payTo: string
  /** The card's name, the Solana Pay `label`. */
  label: string
  /** The one transaction signature the gate accepts as paid. */
  acceptedProof: string
}

export function createFakePaymentGate(options: FakePaymentGateOptions): FakePaymentGate {
  const calls: PaidCall[] = []
  const nonces: string[] = []
  return {
    calls,
    nonces,
    async admit(call): Promise<GateDecision> {
      calls.push(call)
      if (call.proof === options.acceptedProof) {
        return {kind: 'admitted', hold: {receipt: {via: 'proof', signature: call.proof}, commit: async () => {}, release: async () => {}}}
      }
      const nonce = randomBytes(12).toString('hex')
      nonces.push(nonce)
      const lamports = call.lamports.toString()
      return {
        kind: 'challenge',
        challenge: {
          headers: {
            [PAYMENT_HEADERS.network]: options.network,
            [PAYMENT_HEADERS.address]: options.payTo,
            [PAYMENT_HEADERS.amount]: lamports,
            [PAYMENT_HEADERS.nonce]: nonce,
          },
          body: {
            x402Version: X402_VERSION,
            accepts: [
              {
                scheme: 'exact',
                network: options.network,
                resource: call.resource,
                payTo: options.payTo,
                asset: 'SOL',
                lamports,
                nonce,
                chainPayUrl: `solana:${options.payTo}?amount=${lamportsToSol(call.lamports)}&memo=${nonce}&label=${encodeURIComponent(options.label)}`,
              },
            ],
            hint: call.proof ? 'The proof was not accepted; pay the offer and retry with X-Payment-Proof.' : 'Pay the offer, then retry with X-Payment-Proof: <transaction signature>.',
          },
        },
      }
    },
    async close() {},
  }
}
