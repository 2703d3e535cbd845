/**
 * Mesh-Sig: Ed25519 request signatures.
 * spec Authentication 2: header `Mesh-Sig: v1 <pubkey_b64> <ts> <nonce> <sig_b64>`;
 * signed string `MS1\nMETHOD\npath\nsha256hex(raw body)\nts\nnonce`;
 * checks: |now − ts| ≤ 120 s, nonce never seen, Ed25519 verifies.
 * DECISIONS: path includes the query string; nonces kept ≥ 240 s; a nonce is
 * consumed only when the signature is valid (so garbage cannot burn nonces).
 */
import {createHash, randomBytes, sign, verify, type KeyObject} from 'node:crypto'
import {unauthorized} from '../lib/errors.js'
import {
  MAX_SKEW_SECONDS,
  MESH_SIG_PREFIX,
  MESH_SIG_VERSION,
  NONCE_PATTERN,
  NONCE_TTL_MS,
  SIGNATURE_BYTES,
} from './constants.js'
import {exportPublicKey, importPrivateKey, importPublicKey, normalizePublicKey} from './keys.js'
import type {NonceStore} from './nonce-store.js'

/** A parsed `Mesh-Sig` header. */
export interface MeshSig {
  /** Canonical base64 of the raw 32-byte public key. */
  pubkey: string
  /** Unix seconds. */
  ts: number
  nonce: string
  signature: Buffer
}

const toBytes = (body: Uint8Array | string | undefined) =>
  body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength)

/** Lowercase hex SHA-256 of the raw body (of the empty string when there is none). */
export const bodyHash = (body: Uint8Array | string | undefined) => createHash('sha256').update(toBytes(body)).digest('hex')

/** The exact bytes that are signed. METHOD is upper-cased; path is sent as-is, query included. */
export function signedString(input: {method: string; path: string; body?: Uint8Array | string; ts: number; nonce: string}): string {
  return [MESH_SIG_PREFIX, input.method.toUpperCase(), input.path, bodyHash(input.body), String(input.ts), input.nonce].join('\n')
}

/** Parses a header value; throws 401 `invalid_signature_header` when it is malformed. */
export function parseMeshSig(header: string): MeshSig {
  const bad = (why: string) => unauthorized('invalid_signature_header', `Mesh-Sig header is malformed: ${why}`)
  const parts = header.trim().split(/\s+/)
  if (parts.length !== 5) throw bad('expected "v1 <pubkey_b64> <ts> <nonce> <sig_b64>"')
  const [version, pubkeyText, tsText, nonce, sigText] = parts
  if (version !== MESH_SIG_VERSION) throw bad(`unknown version "${version.slice(0, 16)}"`)
  const pubkey = normalizePublicKey(pubkeyText)
  if (!pubkey) throw bad('the public key is not base64 of 32 bytes')
  if (!/^\d{1,12}$/.test(tsText)) throw bad('ts is not Unix seconds')
  if (!NONCE_PATTERN.test(nonce)) throw bad('nonce must be 8 to 128 characters of [A-Za-z0-9._~+/=-]')
  if (!/^[A-Za-z0-9+/_-]{86}(==)?$/.test(sigText)) throw bad('the signature is not base64 of 64 bytes')
  const signature = Buffer.from(sigText.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  if (signature.length !== SIGNATURE_BYTES) throw bad('the signature is not 64 bytes')
  return {pubkey, ts: Number(tsText), nonce, signature}
}

export interface SignRequestInput {
  method: string
  /** Path with its query string, exactly as it will be sent. */
  path: string
  body?: Uint8Array | string
  /** PKCS#8 PEM or a KeyObject. */
  privateKey: string | KeyObject
  /** Unix seconds; default now. */
  ts?: number
  /** Default: 16 random bytes, base64url. */
  nonce?: string
}

/** Builds the `Mesh-Sig` header value for a request (the helper clients use). */
export function signRequest(input: SignRequestInput): string {
  const key = importPrivateKey(input.privateKey)
  const ts = input.ts ?? Math.floor(Date.now() / 1000)
  const nonce = input.nonce ?? randomBytes(16).toString('base64url')
  const signature = sign(null, Buffer.from(signedString({...input, ts, nonce}), 'utf8'), key)
  return [MESH_SIG_VERSION, exportPublicKey(key), ts, nonce, signature.toString('base64')].join(' ')
}

export interface VerifyMeshSigInput {
  header: string
  method: string
  path: string
  body?: Uint8Array | string
  nonces: NonceStore
  /** Milliseconds clock; default Date.now. */
  clock?: () => number
  /** Allowed skew in seconds; default 120 (spec). */
  maxSkewSeconds?: number
}

/**
 * Verifies a signed request and consumes its nonce. Returns the signer's
 * public key; throws a 401 MeshError: `invalid_signature_header`,
 * `signature_expired` (skew), `invalid_signature`, `nonce_reused`.
 */
export async function verifyMeshSig(input: VerifyMeshSigInput): Promise<{pubkey: string; ts: number; nonce: string}> {
  const parsed = parseMeshSig(input.header)
  const nowMs = (input.clock ?? Date.now)()
  const skew = input.maxSkewSeconds ?? MAX_SKEW_SECONDS
  if (Math.abs(nowMs / 1000 - parsed.ts) > skew) {
    throw unauthorized('signature_expired', `Mesh-Sig ts is more than ${skew} s away from the server clock`)
  }
  const message = Buffer.from(signedString({method: input.method, path: input.path, body: input.body, ts: parsed.ts, nonce: parsed.nonce}), 'utf8')
  let valid = false
  try {
    valid = verify(null, message, importPublicKey(parsed.pubkey), parsed.signature)
  } catch {
    // A key OpenSSL refuses to load cannot have signed anything.
  }
  if (!valid) {
    throw unauthorized('invalid_signature', 'Mesh-Sig signature does not verify for this method, path and body')
  }
  // Keep the nonce until any ts we would still accept has expired: ≥ 2 × skew from now.
  const keepUntil = Math.max(nowMs + 2 * skew * 1000, nowMs + NONCE_TTL_MS)
  if (!(await input.nonces.useNonce(`${parsed.pubkey}:${parsed.nonce}`, keepUntil, nowMs))) {
    throw unauthorized('nonce_reused', 'Mesh-Sig nonce was already used')
  }
  return {pubkey: parsed.pubkey, ts: parsed.ts, nonce: parsed.nonce}
}
