/**
 * The relay's numbers and names, in one place (STYLE: constants per area).
 * Limits the spec leaves open ("Member counts, message rates and cluster
 * quotas: not shown") are defaults here, overridable through RelayOptions.limits
 * and the `mesh serve relay` flags.
 */
import {CLOSE_CODES} from '../protocol/close-codes.js'
import {MAX_FRAME_BYTES, type ClosedReason} from '../protocol/cluster.js'
import type {RelayLimits} from './types.js'

/** spec: Cluster `cluster_id` form `c_<id>`; `token` form `ck_…`; `admin_token` form `ak_…`. */
export const CLUSTER_ID_PREFIX = 'c_'
export const CLUSTER_TOKEN_PREFIX = 'ck_'
export const ADMIN_TOKEN_PREFIX = 'ak_'
/** DECISIONS: ids carry at least 128 random bits; we use 144 (18 bytes → 24 base64url chars). */
export const CLUSTER_ID_BYTES = 18
/** Tokens carry 256 random bits. */
export const TOKEN_BYTES = 32

/** Returned at creation as `protocol`: the frame protocol a client speaks on `ws`. */
export const RELAY_PROTOCOL = 'mesh-cluster/1'

/** Header carrying the admin token on DELETE/PATCH (spec: Authentication). */
export const CLUSTER_TOKEN_HEADER = 'x-cluster-token'

export {MAX_FRAME_BYTES, MAX_HANDLE_LENGTH, MAX_DID_LENGTH, SLUG_PATTERN} from '../protocol/cluster.js'
/** ws maxPayload: a bit above the limit, so an oversized frame gets an error frame instead of a killed socket. */
export const WS_MAX_PAYLOAD_FACTOR = 2

/** Length cap on a cluster's slug, so catalog rows stay bounded. */
export const MAX_SLUG_LENGTH = 64

/** Catalog page size. */
export const CATALOG_DEFAULT_LIMIT = 100
export const CATALOG_MAX_LIMIT = 500

/** Request body cap for create/patch. */
export const MAX_BODY_BYTES = 16 * 1024

/** Defaults of the configurable limits (DECISIONS: Limits (configurable)). */
export const DEFAULT_LIMITS: RelayLimits = {
  maxFrameBytes: MAX_FRAME_BYTES,
  // Token streaming sends one frame per delta; 100/s leaves room for that.
  messagesPerWindow: 100,
  messageWindowMs: 1000,
  membersPerCluster: 1000,
  creationsPerIp: 30,
  creationWindowMs: 60 * 60 * 1000,
  // Like the registry's 600 requests per minute per IP: far above a client's reconnects, below a flood of opens.
  socketOpensPerIp: 600,
  socketOpenWindowMs: 60_000,
  highWaterBytes: 1024 * 1024,
  pingIntervalMs: 30_000,
}

/**
 * A socket's writes are held (corked) until the end of the tick so they leave
 * in one syscall (ws/wire.ts); once this many bytes wait, they are handed to
 * the kernel at once. Keeps a burst's memory and latency bounded and lets the
 * slow-consumer check see only bytes the peer has not taken.
 */
export const CORK_FLUSH_BYTES = 64 * 1024

/** A slow consumer or shutdown socket gets this long to take its `closed` frame before it is destroyed. */
export const CLOSE_GRACE_MS = 2000

/** Node liveness for shared presence: heartbeat period and how long until a silent node counts as gone. */
export const NODE_HEARTBEAT_MS = 10_000
export const NODE_STALE_MS = 35_000

/** Bus subject of one cluster's traffic; a node subscribes only while it has a local member there. */
export const clusterSubject = (clusterId: string) => `cluster.${clusterId}`

/** WebSocket close code sent after each `closed` frame, from the one table (docs/relay.md, Close codes). */
export const CLOSE_CODE_OF_REASON = {
  deleted: CLOSE_CODES.clusterDeleted,
  slow_consumer: CLOSE_CODES.policy,
  server_shutdown: CLOSE_CODES.goingAway,
  idle: CLOSE_CODES.normal,
} as const satisfies Record<ClosedReason, number>
