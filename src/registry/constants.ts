/**
 * The registry's numbers and names, named once.
 * spec: registry Limits; DECISIONS "Registry and agent contract"; docs/registry.md, Rate limits and Choices where the spec was silent.
 * Rate limits are not in the spec ("not shown"): generous defaults, all configurable.
 */
import type {RegistryLimits} from './types.js'

export {AGENT_ID_PATTERN, AGENT_ID_RULE} from '../protocol/registry.js'
/**
 * Ids that would shadow fixed routes (`/agents/messages`, `/v1/agents/ws`,
 * `/v1/agents/me`...). Refused at registration so paths never become ambiguous.
 */
export const RESERVED_AGENT_IDS = new Set(['me', 'ws', 'messages', 'channels', 'register', 'token', 'state', 'identity', 'registry'])

export {MAX_CARD_BYTES, MAX_CARD_DEPTH} from '../protocol/registry.js'
/** spec Limits: description ≤ 500. */
export const MAX_DESCRIPTION_CHARS = 500

/** spec Limits: JWT lifetime 24 h. */
export const TOKEN_TTL_SECONDS = 24 * 60 * 60
/**
 * Verified JWTs a node remembers until their exp (LRU), so the PATCH of a
 * heartbeat costs no second HMAC. About 0.5 KB each.
 */
export const TOKEN_CACHE_ENTRIES = 16_384
/**
 * Agent records the SQLite store keeps in memory at least (a few KB each; up
 * to twice this many): enough for every agent of a mid-sized registry to
 * heartbeat without a read.
 */
export const RECORD_CACHE_ENTRIES = 16_384
/** JWT issuer claim; the same on every node so any node accepts any node's tokens. */
export const TOKEN_ISSUER = 'mesh-registry'
/** spec: offline after 5 minutes without a token call. */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000
/** DECISIONS Liveness: a sweep "every few seconds" publishes online→offline transitions. */
export const OFFLINE_SWEEP_INTERVAL_MS = 5_000

/** The api_key: 16 random bytes as 32 lowercase hex chars (spec: 32 hex in the legacy hub). */
export const API_KEY_BYTES = 16

/** Header that carries the operator's admin key (DECISIONS: reserved owner_class). */
export const ADMIN_KEY_HEADER = 'x-admin-key'
/** Names under which the deployment's shared secrets are kept (store + data dir). */
export const JWT_SECRET_NAME = 'jwt_secret'
export const ADMIN_KEY_NAME = 'admin_key'
/** Files in the data dir (mode 0600). */
export const JWT_SECRET_FILE = 'registry-jwt.secret'
export const ADMIN_KEY_FILE = 'registry-admin.key'

/** spec: `POST /v1/agents/me/state` keeps only these top-level keys. */
export const STATE_KEYS = [
  'pricing',
  'availability',
  'latency_p50_ms',
  'latency_p99_ms',
  'geo',
  'inventory_endpoint',
  'rate_limit',
  'tags',
  'models',
  'accepts',
  'produces',
  'protocols',
  'contact',
  'category',
] as const

/** Page sizes of the listings. */
export const LIST_DEFAULT_LIMIT = 50
export const LIST_MAX_LIMIT = 200
export const NETWORK_DEFAULT_LIMIT = 500
export const NETWORK_MAX_LIMIT = 1000

/**
 * RFC 9745 `Deprecation` value on legacy hub routes: the date mesh started
 * serving them as deprecated (2026-01-01T00:00:00Z).
 */
export const LEGACY_DEPRECATION = '@1767225600'

/** Path prefixes the per-IP limit and the legacy headers apply to (the site's live stream counts like the areas' own). */
export const REGISTRY_PATH = /^\/(v1\/agents|v1\/search|agents|agent|platform|network|clusters|site\/events)(\/|$)/
export const LEGACY_PATH = /^\/(agents|platform)(\/|$)/

export const DEFAULT_LIMITS: RegistryLimits = {
  bodyBytes: 64 * 1024,
  perIpPerMinute: 600,
  perIdentityPerMinute: 300,
  registrationsPerIpPerHour: 60,
}
