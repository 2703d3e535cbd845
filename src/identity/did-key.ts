/**
 * did:key for Ed25519 keys. DECISIONS did: `did:key:z…` = multibase
 * base58btc of the multicodec `ed25519-pub` prefix (0xed 0x01) + the raw key.
 */
import {base58Decode, base58Encode} from './base58.js'
import {DID_KEY_PREFIX, ED25519_MULTICODEC, MULTIBASE_BASE58BTC, PUBLIC_KEY_BYTES} from './constants.js'
import {decodePublicKey} from './keys.js'

/** The did:key of a raw base64 Ed25519 public key; throws a TypeError when the key is malformed. */
export function didKeyFromPublicKey(publicKeyBase64: string): string {
  const raw = decodePublicKey(publicKeyBase64)
  if (!raw) throw new TypeError('An Ed25519 public key is base64 of 32 raw bytes')
  const bytes = new Uint8Array(ED25519_MULTICODEC.length + raw.length)
  bytes.set(ED25519_MULTICODEC)
  bytes.set(raw, ED25519_MULTICODEC.length)
  return DID_KEY_PREFIX + MULTIBASE_BASE58BTC + base58Encode(bytes)
}

/** The raw base64 public key inside an Ed25519 did:key; throws a TypeError for anything else. */
export function publicKeyFromDidKey(did: string): string {
  if (typeof did !== 'string' || !did.startsWith(DID_KEY_PREFIX + MULTIBASE_BASE58BTC)) {
    throw new TypeError('Not a base58btc did:key')
  }
  const bytes = base58Decode(did.slice(DID_KEY_PREFIX.length + 1))
  if (
    bytes.length !== ED25519_MULTICODEC.length + PUBLIC_KEY_BYTES ||
    bytes[0] !== ED25519_MULTICODEC[0] ||
    bytes[1] !== ED25519_MULTICODEC[1]
  ) {
    throw new TypeError('Not an Ed25519 did:key')
  }
  return Buffer.from(bytes.subarray(ED25519_MULTICODEC.length)).toString('base64')
}
