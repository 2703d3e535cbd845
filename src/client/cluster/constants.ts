/**
 * The cluster client's numbers, named once. Wire limits come from the spec
 * (cluster-service.md, Limits); the reconnect schedule is mesh's choice
 * (docs/cluster-cli.md, Reconnect).
 */

/** Default relay base URL when neither `--relay` nor `MESH_RELAY` is given. */
export const DEFAULT_RELAY_URL = 'http://127.0.0.1:8080'
/** Environment variable naming the relay base URL. */
export const RELAY_ENV = 'MESH_RELAY'

// spec: cluster Limits — message or frame size ≤ 64 KB
export const MAX_FRAME_BYTES = 64 * 1024

/** First reconnect delay; doubles per failed attempt. */
export const RECONNECT_BASE_MS = 500
/** Reconnect delays never grow beyond this. */
export const RECONNECT_MAX_MS = 30_000
/** Jitter spreads delays over [delay × (1 − JITTER), delay] so a restarted relay is not hit by every client at once. */
export const RECONNECT_JITTER = 0.5

/** How long the WebSocket opening handshake may take before it counts as failed. */
export const HANDSHAKE_TIMEOUT_MS = 10_000
/** How long a REST call to the relay may take. */
export const REST_TIMEOUT_MS = 15_000
/** When stdin ends in pipe mode, how long to wait for acks of the last sends before closing. */
export const FLUSH_TIMEOUT_MS = 5_000
/** Outbound frames queued while (re)connecting; a send beyond this is refused (`send_queue_full`). */
export const MAX_QUEUED_FRAMES = 1_000

/** `closed.reason` after which a client must not reconnect (DECISIONS: Cluster relay). */
export const REASON_DELETED = 'deleted'
