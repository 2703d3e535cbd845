/**
 * Proof of control of a prepaid payer address (issue 18, deliverable 5). A
 * Solana address is the base58 of an Ed25519 public key, so whoever holds
 * its private key can sign: the topup issues a challenge message naming the
 * agent, the address, the caller key, a nonce and an expiry, and the payer
 * signs its UTF-8 bytes as an off-chain message — what a Solana wallet's
 * `signMessage` (Wallet Standard `solana:signMessage`) signs: the bytes as
 * given, no prefix, no transaction. The other proof is a first deposit from
 * the address carrying the nonce as its memo (read by the deposit scan).
 */
import {verify} from 'node:crypto'
import {base58Decode} from '../../identity/base58.js'
import {importPublicKey} from '../../identity/keys.js'
import type {PayerChallenge} from '../store/store.js'

/** An Ed25519 signature is 64 bytes. */
const SIGNATURE_BYTES = 64
/** Padded base64 of 64 bytes: 86 characters and `==`. */
const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/
/** Base58 of 64 bytes is at most 88 characters; longer text is refused before decoding (base58 decoding is quadratic). */
const MAX_SIGNATURE_TEXT = 88

/** What identifies the agent in the message: its wallet (unique to it) and network. */
export interface ChallengeAgent {
  wallet: string
  network: string
}

/**
 * The exact text the payer signs (lines joined with LF, no trailing LF):
 *
 * ```
 * mesh prepaid: prove control of a payer address
 * I control <payer address> and bind it to the caller key <pubkey>: its deposits to <wallet> on <network> buy credit for that key.
 * agent: <wallet> (<network>)
 * payer_address: <payer address>
 * caller_key: <pubkey>
 * nonce: <32 hex>
 * expires: <ISO 8601 UTC>
 * ```
 */
export function payerChallengeMessage(agent: ChallengeAgent, challenge: PayerChallenge): string {
  return [
    'mesh prepaid: prove control of a payer address',
    `I control ${challenge.payerAddress} and bind it to the caller key ${challenge.pubkey}: its deposits to ${agent.wallet} on ${agent.network} buy credit for that key.`,
    `agent: ${agent.wallet} (${agent.network})`,
    `payer_address: ${challenge.payerAddress}`,
    `caller_key: ${challenge.pubkey}`,
    `nonce: ${challenge.nonce}`,
    `expires: ${new Date(challenge.expiresMs).toISOString()}`,
  ].join('\n')
}

/** The 64 signature bytes from base58 (as Solana writes signatures) or padded base64; null when it is neither. */
export function decodePayerSignature(text: string): Buffer | null {
  if (text.length > MAX_SIGNATURE_TEXT) return null
  let bytes: Uint8Array
  try {
    bytes = BASE64_SIGNATURE.test(text) ? Buffer.from(text, 'base64') : base58Decode(text)
  } catch {
    return null
  }
  return bytes.length === SIGNATURE_BYTES ? Buffer.from(bytes) : null
}

/** True when `signature` is the payer address's Ed25519 signature over `message` (UTF-8). */
export function verifyPayerSignature(payerAddress: string, message: string, signature: Buffer): boolean {
  try {
    const publicKey = importPublicKey(Buffer.from(base58Decode(payerAddress)).toString('base64'))
    return verify(null, Buffer.from(message, 'utf8'), publicKey, signature)
  } catch {
    // Not a point on the curve (an address can be off-curve, e.g. a program-derived one): nobody can sign for it.
    return false
  }
}
