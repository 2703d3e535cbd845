/** A fresh 402: a new nonce stored, the four X-Payment-* headers and the challenge body (spec Payment challenge). */
import {randomBytes} from 'node:crypto'
import {NATIVE_ASSET, PAYMENT_HEADERS, X402_VERSION} from '../../protocol/agent-card.js'
import {solanaPayUrl} from '../../protocol/solana-pay.js'
import type {PaymentStore} from '../store/store.js'
import {NONCE_BYTES} from './constants.js'
import {challengeHint, type HintFacts} from './hints.js'
import type {PaymentsConfig} from './options.js'
import type {PaidCall, PaymentChallenge} from './types.js'

export type ChallengeDetails = Pick<HintFacts, 'reason' | 'paid' | 'nonceResource' | 'mismatch'>

/**
 * Issues a nonce for this call, valid `nonceTtlMs`, and builds the 402 around
 * it. Issue 18: the nonce is bound to the call it was issued for (resource,
 * price, body hash, and the signer when the caller signed), so a proof
 * paying it buys that call only, whoever sees the transaction on chain.
 */
export function issueChallenge(config: PaymentsConfig, store: PaymentStore, call: PaidCall, details: ChallengeDetails): PaymentChallenge {
  const nowMs = config.clock()
  const nonce = randomBytes(NONCE_BYTES).toString('hex')
  store.issueNonce({
    nonce,
    resource: call.resource,
    lamports: call.lamports,
    bodyHash: call.bodyHash,
    signer: call.caller.pubkey,
    issuedMs: nowMs,
    expiresMs: nowMs + config.nonceTtlMs,
  })
  const lamports = call.lamports.toString()
  return {
    reason: details.reason,
    headers: {
      [PAYMENT_HEADERS.network]: config.network,
      [PAYMENT_HEADERS.address]: config.wallet,
      // spec Payment challenge: every amount on the wire is integer lamports.
      [PAYMENT_HEADERS.amount]: lamports,
      [PAYMENT_HEADERS.nonce]: nonce,
    },
    body: {
      x402Version: X402_VERSION,
      accepts: [
        {
          scheme: 'exact',
          network: config.network,
          resource: call.resource,
          payTo: config.wallet,
          asset: NATIVE_ASSET,
          lamports,
          nonce,
          chainPayUrl: solanaPayUrl({recipient: config.wallet, lamports: call.lamports, memo: nonce, label: config.label}),
        },
      ],
      hint: challengeHint({
        ...details,
        wallet: config.wallet,
        network: config.network,
        lamports: call.lamports,
        nonce,
        nonceTtlMs: config.nonceTtlMs,
        freePerDay: config.freePerDay,
        prepaid: config.lamportsPerCredit !== null,
        signed: call.caller.pubkey !== null,
        signature: call.proof ?? undefined,
      }),
    },
  }
}
