/**
 * `POST /v1/topup` (spec: prepaid alternative; issue 18, deliverable 5:
 * prepaid payer addresses proven). Naming a payer address binds nothing: the
 * answer is a challenge for that (address, caller key), and the binding is
 * made only when the address's owner proves control — a `payer_signature`
 * of the challenge message by the address's key (here), or a first deposit
 * from the address carrying the challenge's memo (the deposit scan,
 * prepaid.ts). An unproven claim lapses when its challenge expires. The
 * first proven binding of an address wins, and only its owner can prove.
 */
import {randomBytes} from 'node:crypto'
import {conflict, forbidden, invalid} from '../../lib/errors.js'
import {solanaPayUrl} from '../../protocol/solana-pay.js'
import {isSolanaAddress} from '../solana/address.js'
import type {PayerChallenge} from '../store/store.js'
import {NONCE_BYTES, PAYER_CHALLENGE_TTL_MS, TOPUP_ROUTE} from './constants.js'
import {payerChallengeHint, topupHint} from './hints.js'
import {decodePayerSignature, payerChallengeMessage, verifyPayerSignature} from './payer-proof.js'
import type {PrepaidContext} from './prepaid.js'
import type {TopupRequest} from './types.js'

const taken = () =>
  conflict('payer_address_taken', 'This payer address is already bound to another caller key by a proof of control; pay from an address of your own', {field: 'payer_address'})

/** The live challenge of this (address, key), or a new one: asking again while it lives returns the same, so a message being signed is not replaced under the signer. */
function liveChallenge(context: PrepaidContext, payerAddress: string, pubkey: string, nowMs: number): PayerChallenge {
  const latest = context.store.latestPayerChallenge(payerAddress, pubkey)
  if (latest && nowMs <= latest.expiresMs) return latest
  const challenge: PayerChallenge = {nonce: randomBytes(NONCE_BYTES).toString('hex'), payerAddress, pubkey, issuedMs: nowMs, expiresMs: nowMs + PAYER_CHALLENGE_TTL_MS}
  context.store.issuePayerChallenge(challenge)
  return challenge
}

/** Checks `payer_signature` against this key's latest challenge for the address, and binds on success. */
function proveBySignature(context: PrepaidContext, request: TopupRequest & {payerSignature: string}, nowMs: number): void {
  const {config, store} = context
  const {payerAddress, pubkey} = request
  const field = 'payer_signature'
  const signature = decodePayerSignature(request.payerSignature)
  if (!signature) throw invalid('invalid_payer_signature', 'payer_signature must be an Ed25519 signature: base58 (or padded base64) of 64 bytes', {field})
  const challenge = store.latestPayerChallenge(payerAddress, pubkey)
  const again = `send ${TOPUP_ROUTE} {"payer_address": "${payerAddress}"} (signed by this key) and sign the challenge.message it answers`
  if (!challenge) throw conflict('payer_challenge_missing', `No challenge was issued to this key for ${payerAddress}: ${again}`, {field})
  if (nowMs > challenge.expiresMs) {
    throw conflict('payer_challenge_expired', `The challenge for ${payerAddress} expired at ${new Date(challenge.expiresMs).toISOString()}: ${again}`, {field})
  }
  if (!verifyPayerSignature(payerAddress, payerChallengeMessage(config, challenge), signature)) {
    throw forbidden(
      'payer_signature_rejected',
      `payer_signature is not the signature of ${payerAddress}'s key over the latest challenge.message issued to this caller key (its UTF-8 bytes, as a wallet's signMessage signs them); binding an address needs its owner's key`,
      {field},
    )
  }
  if (!store.bindPayer(payerAddress, pubkey, nowMs, 'signature').bound) throw taken()
}

/** `POST /v1/topup {payer_address, payer_signature?}`: the challenge to prove control, or the binding and deposit instructions once proven. */
export function topup(context: PrepaidContext, request: TopupRequest): Record<string, unknown> {
  const {config, store} = context
  const {payerAddress, pubkey} = request
  if (!isSolanaAddress(payerAddress)) {
    throw invalid('invalid_payer_address', 'payer_address must be a Solana address (base58, 32 bytes) you will pay from', {field: 'payer_address'})
  }
  if (payerAddress === config.wallet) throw invalid('invalid_payer_address', "payer_address is this agent's own wallet", {field: 'payer_address'})
  const nowMs = config.clock()
  let binding = store.getBinding(payerAddress)
  if (binding?.provenBy && binding.pubkey !== pubkey) throw taken()
  if (!binding?.provenBy && request.payerSignature !== undefined) {
    proveBySignature(context, {...request, payerSignature: request.payerSignature}, nowMs)
    binding = store.getBinding(payerAddress)
  }

  const answer = {
    payer_address: payerAddress,
    pay_to: config.wallet,
    network: config.network,
    lamports_per_credit: config.lamportsPerCredit.toString(),
    credits: store.balance(pubkey),
    scan_interval_seconds: Math.round(config.topupIntervalMs / 1000),
  }
  if (binding?.provenBy && binding.pubkey === pubkey) {
    const hint = topupHint({payerAddress, wallet: config.wallet, network: config.network, lamportsPerCredit: config.lamportsPerCredit, scanIntervalMs: config.topupIntervalMs})
    return {...answer, bound: true, proven_by: binding.provenBy, hint}
  }
  const challenge = liveChallenge(context, payerAddress, pubkey, nowMs)
  const expiresAt = new Date(challenge.expiresMs).toISOString()
  return {
    ...answer,
    bound: false,
    challenge: {
      message: payerChallengeMessage(config, challenge),
      memo: challenge.nonce,
      expires_at: expiresAt,
      // A first deposit of one credit carrying the memo, for a wallet that opens Solana Pay URIs (it must pay from payer_address).
      pay_url: solanaPayUrl({recipient: config.wallet, lamports: config.lamportsPerCredit, memo: challenge.nonce, label: config.label}),
    },
    hint: payerChallengeHint({payerAddress, wallet: config.wallet, network: config.network, memo: challenge.nonce, expiresAt, ttlMs: PAYER_CHALLENGE_TTL_MS}),
  }
}
