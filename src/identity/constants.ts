/**
 * Names and numbers of mesh identity, named once.
 * spec: registry "Authentication"; DECISIONS "Mesh-Sig"; docs/registry.md, Identity and Mesh-Sig.
 */

/** The request header carrying a signature (HTTP headers are case-insensitive). */
export const MESH_SIG_HEADER = 'mesh-sig'
/** First token of the header value of the spec's form (spec Authentication 2). */
export const MESH_SIG_VERSION = 'v1'
/** First line of the v1 signed string. */
export const MESH_SIG_PREFIX = 'MS1'
/**
 * issue 18: the form that also names its audience (the scheme and authority
 * the request is addressed to), so a signature made for one server does not
 * verify at another. Header `v2 <pubkey_b64> <ts> <nonce> <sig_b64> <audience>`.
 */
export const MESH_SIG_V2 = 'v2'
/** First line of the v2 signed string: `MS2\nAUDIENCE\nMETHOD\npath\nsha256hex(body)\nts\nnonce`. */
export const MESH_SIG_V2_PREFIX = 'MS2'
/** Schemes an audience may have (WHATWG URL protocol form). */
export const AUDIENCE_SCHEMES: readonly string[] = ['http:', 'https:']
/** Longest audience accepted in a header (a host name is at most 253 characters, plus scheme and port). */
export const MAX_AUDIENCE_LENGTH = 300
/** spec Limits: signature clock skew ≤ 120 s. */
export const MAX_SKEW_SECONDS = 120
/** DECISIONS: nonces are kept at least twice the skew. */
export const NONCE_TTL_MS = 2 * MAX_SKEW_SECONDS * 1000
/** Nonce: 8 to 128 URL-safe or base64 characters (mesh's choice; the spec leaves it open). */
export const NONCE_PATTERN = /^[A-Za-z0-9._~+/=-]{8,128}$/

/** spec: the Ed25519 public key is 32 raw bytes, the signature 64. */
export const PUBLIC_KEY_BYTES = 32
export const SIGNATURE_BYTES = 64

/** DECISIONS did: multicodec `ed25519-pub` (0xed, varint-encoded as 0xed 0x01). */
export const ED25519_MULTICODEC = Uint8Array.of(0xed, 0x01)
export const DID_KEY_PREFIX = 'did:key:'
/** Multibase prefix of base58btc. */
export const MULTIBASE_BASE58BTC = 'z'

/** Keychain service name for local secrets. */
export const KEYCHAIN_SERVICE = 'mesh'
