/**
 * Ed25519 identity keys with node:crypto only. On the wire a public key is
 * base64 of its raw 32 bytes (spec Authentication); a private key is kept as
 * PKCS#8 PEM, the form node:crypto and most tools read.
 */
import {createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject} from 'node:crypto'
import {PUBLIC_KEY_BYTES} from './constants.js'

/** A freshly generated identity: public key (raw base64) and private key (PKCS#8 PEM). */
export interface IdentityKeyPair {
  publicKey: string
  privateKeyPem: string
}

/** Generates a new Ed25519 identity key pair. */
export function generateIdentityKeyPair(): IdentityKeyPair {
  const {publicKey, privateKey} = generateKeyPairSync('ed25519')
  return {
    publicKey: exportPublicKey(publicKey),
    privateKeyPem: privateKey.export({format: 'pem', type: 'pkcs8'}).toString(),
  }
}

const fromBase64Url = (text: string) => Buffer.from(text, 'base64url')

/**
 * Decodes a base64 (standard or URL-safe, padded or not) public key and
 * checks it is 32 bytes; returns the raw bytes or null when malformed.
 */
export function decodePublicKey(base64: string): Buffer | null {
  if (typeof base64 !== 'string' || !/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(base64)) return null
  const raw = Buffer.from(base64.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return raw.length === PUBLIC_KEY_BYTES ? raw : null
}

/** The canonical form of a public key: standard padded base64 of the raw 32 bytes, or null when malformed. */
export function normalizePublicKey(base64: string): string | null {
  const raw = decodePublicKey(base64)
  return raw ? raw.toString('base64') : null
}

/** Imports a raw base64 public key as a KeyObject; throws a TypeError when malformed. */
export function importPublicKey(base64: string): KeyObject {
  const raw = decodePublicKey(base64)
  if (!raw) throw new TypeError('An Ed25519 public key is base64 of 32 raw bytes')
  return createPublicKey({key: {kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url')}, format: 'jwk'})
}

/** Exports a public KeyObject (or the public half of a private one) as raw base64. */
export function exportPublicKey(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key
  const jwk = publicKey.export({format: 'jwk'}) as {crv?: string; x?: string}
  if (jwk.crv !== 'Ed25519' || !jwk.x) throw new TypeError('Not an Ed25519 key')
  return fromBase64Url(jwk.x).toString('base64')
}

/** Imports a PKCS#8 PEM Ed25519 private key; throws a TypeError when it is not one. */
export function importPrivateKey(pem: string | KeyObject): KeyObject {
  if (typeof pem !== 'string') return pem
  const key = createPrivateKey(pem)
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError('Not an Ed25519 private key')
  return key
}
