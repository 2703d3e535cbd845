/**
 * A Solana wallet key for tests: an Ed25519 key pair whose address is the
 * base58 of its raw 32-byte public key (as Solana addresses are), and a
 * `signMessage` that signs a text's UTF-8 bytes with no prefix, as a Solana
 * wallet's `signMessage` (Wallet Standard `solana:signMessage`) does.
 */
import {generateKeyPairSync, sign} from 'node:crypto'
import {base58} from './solana-rpc.js'

export interface SolanaWallet {
  /** The base58 address (the raw public key). */
  address: string
  /** The base58 Ed25519 signature of `message` (UTF-8 bytes). */
  signMessage(message: string): string
}

export function solanaWallet(): SolanaWallet {
  const {publicKey, privateKey} = generateKeyPairSync('ed25519')
  const raw = Buffer.from((publicKey.export({format: 'jwk'}) as {x: string}).x, 'base64url')
  return {
    address: base58(raw),
    signMessage: (message) => base58(sign(null, Buffer.from(message, 'utf8'), privateKey)),
  }
}
