/**
 * The cluster client's numbers, named once. Wire limits come from the spec
 * (spec: cluster Limits; docs/relay.md, Limits); the reconnect schedule is
 * mesh's choice (docs/cluster-cli.md, Reconnecting).
 */

/** Default relay base URL when neither `--relay` nor `MESH_RELAY` is given. */
export const DEFAULT_RELAY_URL = 'http://127.0.0.1:8080'
/** Environment variable naming the relay base URL. */
export const RELAY_ENV = 'MESH_RELAY'

export {MAX_FRAME_BYTES, REASON_DELETED} from '../../protocol/cluster.js'

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

// Streams (spec: Message payload — stream chunks; docs/cluster-cli.md, Streams).
/**
 * Pause between two outgoing stream chunks: at most 20 chunks a second, a
 * fifth of the relay's default per-socket rate (100 messages a second, the
 * relay's DEFAULT_LIMITS), so a long text is not cut by `rate_limited` even
 * with other lines sent alongside it.
 */
export const STREAM_CHUNK_INTERVAL_MS = 50
/** Text one stream may carry (UTF-8 bytes): longer text is refused on send, and an incoming stream beyond it is given up. */
export const MAX_STREAM_BYTES = 1024 * 1024
/** Incoming streams assembled at once; one more gives up the least recently active. */
export const MAX_OPEN_STREAMS = 32
/** Out-of-order chunks held per stream while a gap waits to be filled. */
export const MAX_HELD_CHUNKS = 256
/** An incoming stream with no chunk for this long is given up (shown as incomplete). */
export const STREAM_IDLE_TIMEOUT_MS = 60_000
/** How often idle streams are looked for. */
export const STREAM_SWEEP_MS = 1_000
/** Finished streams remembered (for the idle timeout) so their late or repeated chunks are ignored. */
export const MAX_FINISHED_STREAMS = 1_024
