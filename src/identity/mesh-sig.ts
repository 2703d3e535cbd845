/**
 * Mesh-Sig: Ed25519 request signatures.
 * spec Authentication 2: header `Mesh-Sig: v1 <pubkey_b64> <ts> <nonce> <sig_b64>`;
 * signed string `MS1\nMETHOD\npath\nsha256hex(raw body)\nts\nnonce`;
 * checks: |now − ts| ≤ 120 s, nonce never seen, Ed25519 verifies.
 * DECISIONS: path includes the query string; nonces kept ≥ 240 s; a nonce is
 * consumed only when the signature is valid (so garbage cannot burn nonces).
 *
 * issue 18, v2: `Mesh-Sig: v2 <pubkey_b64> <ts> <nonce> <sig_b64> <audience>`,
 * signed string `MS2\nAUDIENCE\nMETHOD\npath\nsha256hex(raw body)\nts\nnonce`:
 * v1 names no server, so a v1 signature made for one server verifies at
 * every other within the skew. A v2 one verifies only where the audience is
 * the server's own (src/identity/audience.ts); its nonce is kept per audience.
 */
import {createHash, randomBytes, sign, verify, type KeyObject} from 'node:crypto'
import {unauthorized} from '../lib/errors.js'
import {audienceOrNull, normalizeAudience} from './audience.js'
import {
  MAX_AUDIENCE_LENGTH,
  MAX_SKEW_SECONDS,
  MESH_SIG_PREFIX,
  MESH_SIG_V2,
  MESH_SIG_V2_PREFIX,
  MESH_SIG_VERSION,
  NONCE_PATTERN,
  NONCE_TTL_MS,
  SIGNATURE_BYTES,
} from './constants.js'
import {exportPublicKey, importPrivateKey, importPublicKey, normalizePublicKey} from './keys.js'
import type {NonceStore} from './nonce-store.js'

/** A parsed `Mesh-Sig` header. */
export interface MeshSig {
  version: 'v1' | 'v2'
  /** v2: the canonical audience the signer named (not yet checked against anything); null for v1. */
  audience: string | null
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

/**
 * The exact bytes that are signed. METHOD is upper-cased; path is sent as-is,
 * query included. With an audience (canonical, see normalizeAudience) the v2
 * string, else the spec's v1 string.
 */
export function signedString(input: {method: string; path: string; body?: Uint8Array | string; ts: number; nonce: string; audience?: string | null}): string {
  const tail = [input.method.toUpperCase(), input.path, bodyHash(input.body), String(input.ts), input.nonce]
  return (input.audience ? [MESH_SIG_V2_PREFIX, input.audience, ...tail] : [MESH_SIG_PREFIX, ...tail]).join('\n')
}

/** Parses a header value; throws 401 `invalid_signature_header` when it is malformed. */
export function parseMeshSig(header: string): MeshSig {
  const bad = (why: string) => unauthorized('invalid_signature_header', `Mesh-Sig header is malformed: ${why}`)
  const parts = header.trim().split(/\s+/)
  const version = parts[0]
  if (version === MESH_SIG_V2) {
    if (parts.length !== 6) throw bad('expected "v2 <pubkey_b64> <ts> <nonce> <sig_b64> <audience>"')
  } else {
    if (parts.length !== 5) throw bad('expected "v1 <pubkey_b64> <ts> <nonce> <sig_b64>" or "v2 <pubkey_b64> <ts> <nonce> <sig_b64> <audience>"')
    if (version !== MESH_SIG_VERSION) throw bad(`unknown version "${version.slice(0, 16)}"`)
  }
  const [, pubkeyText, tsText, nonce, sigText, audienceText] = parts
  let audience: string | null = null
  if (version === MESH_SIG_V2) {
    // Only the canonical form: two spellings of one audience would be two nonce keys.
    audience = audienceText.length <= MAX_AUDIENCE_LENGTH ? audienceOrNull(audienceText) : null
    if (audience !== audienceText) throw bad('the audience is not a canonical origin (lowercase scheme://host[:port], no default port, no path)')
  }
  const pubkey = normalizePublicKey(pubkeyText)
  if (!pubkey) throw bad('the public key is not base64 of 32 bytes')
  if (!/^\d{1,12}$/.test(tsText)) throw bad('ts is not Unix seconds')
  if (!NONCE_PATTERN.test(nonce)) throw bad('nonce must be 8 to 128 characters of [A-Za-z0-9._~+/=-]')
  if (!/^[A-Za-z0-9+/_-]{86}(==)?$/.test(sigText)) throw bad('the signature is not base64 of 64 bytes')
  const signature = Buffer.from(sigText.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  if (signature.length !== SIGNATURE_BYTES) throw bad('the signature is not 64 bytes')
  return {version, audience, pubkey, ts: Number(tsText), nonce, signature}
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
  /**
   * The URL the request is sent to (only its origin counts): signs v2, bound
   * to that server (issue 18). Without it the spec's v1, which every server
   * accepts only where a replay to another server costs nothing.
   */
  audience?: string | URL
}

/** Builds the `Mesh-Sig` header value for a request (the helper clients use; mesh's clients always pass `audience`). */
export function signRequest(input: SignRequestInput): string {
  const key = importPrivateKey(input.privateKey)
  const ts = input.ts ?? Math.floor(Date.now() / 1000)
  const nonce = input.nonce ?? randomBytes(16).toString('base64url')
  const audience = input.audience === undefined ? null : normalizeAudience(input.audience)
  const signature = sign(null, Buffer.from(signedString({...input, ts, nonce, audience}), 'utf8'), key)
  const fields = [exportPublicKey(key), ts, nonce, signature.toString('base64')]
  return (audience ? [MESH_SIG_V2, ...fields, audience] : [MESH_SIG_VERSION, ...fields]).join(' ')
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
  /**
   * The server's own audience (normalizeAudience of its public URL, or of the
   * origin the request was addressed to): a v2 signature must name it. Null
   * or absent: the server does not know its address and refuses every v2
   * signature (`audience_unknown`).
   */
  audience?: string | null
}

/** A verified signature. */
export interface VerifiedMeshSig {
  pubkey: string
  ts: number
  nonce: string
  version: 'v1' | 'v2'
  /**
   * v2: the audience it names, which is this server's; null for v1, which
   * could have been made for any server (issue 18: never enough for a key
   * rotation, a pubkey binding or spending prepaid credit).
   */
  audience: string | null
}

/**
 * Verifies a signed request and consumes its nonce. Returns the signer's
 * public key and, for v2, the audience; throws a 401 MeshError:
 * `invalid_signature_header`, `signature_expired` (skew), `wrong_audience`
 * and `audience_unknown` (v2), `invalid_signature`, `nonce_reused`.
 */
export async function verifyMeshSig(input: VerifyMeshSigInput): Promise<VerifiedMeshSig> {
  const parsed = parseMeshSig(input.header)
  const nowMs = (input.clock ?? Date.now)()
  const skew = input.maxSkewSeconds ?? MAX_SKEW_SECONDS
  if (Math.abs(nowMs / 1000 - parsed.ts) > skew) {
    throw unauthorized('signature_expired', `Mesh-Sig ts is more than ${skew} s away from the server clock`)
  }
  if (parsed.audience !== null) {
    // Before the signature check: a signature for another server cannot verify here, and the answer says why.
    if (!input.audience) throw unauthorized('audience_unknown', `Mesh-Sig was signed for ${parsed.audience}, but this server does not know its own address to check it (its operator sets a public URL)`)
    if (parsed.audience !== input.audience) throw unauthorized('wrong_audience', `Mesh-Sig was signed for ${parsed.audience}; this is ${input.audience}`)
  }
  const message = Buffer.from(signedString({method: input.method, path: input.path, body: input.body, ts: parsed.ts, nonce: parsed.nonce, audience: parsed.audience}), 'utf8')
  let valid = false
  try {
    valid = verify(null, message, importPublicKey(parsed.pubkey), parsed.signature)
  } catch {
    // A key OpenSSL refuses to load cannot have signed anything.
  }
  if (!valid) {
    throw unauthorized('invalid_signature', `Mesh-Sig signature does not verify for this method, path and body${parsed.audience ? ` at ${parsed.audience}` : ''}`)
  }
  // Keep the nonce until any ts we would still accept has expired: ≥ 2 × skew from now.
  const keepUntil = Math.max(nowMs + 2 * skew * 1000, nowMs + NONCE_TTL_MS)
  if (!(await input.nonces.useNonce(nonceKey(parsed), keepUntil, nowMs))) {
    throw unauthorized('nonce_reused', 'Mesh-Sig nonce was already used')
  }
  return {pubkey: parsed.pubkey, ts: parsed.ts, nonce: parsed.nonce, version: parsed.version, audience: parsed.audience}
}

/**
 * Where a nonce is remembered. v2: per audience (issue 18), the signed
 * audience being this server's, so one store may serve several audiences.
 * v1: per key as before — never keyed on an address the request chose, or
 * a Host header could mint fresh nonce keys for a replay.
 */
const nonceKey = (sig: MeshSig) => (sig.audience ? `${sig.audience} ${sig.pubkey}:${sig.nonce}` : `${sig.pubkey}:${sig.nonce}`)
