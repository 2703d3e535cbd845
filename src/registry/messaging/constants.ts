/**
 * The numbers of the registry message bus, named once.
 * spec: registry "Model B messaging"; DECISIONS "Webhook"; docs/messaging.md, Limits.
 */

/** Largest serialized `payload` of one message (inbox, WebSocket, channel); larger is 413 / `frame_too_large`. */
export const MAX_PAYLOAD_BYTES = 64 * 1024
/**
 * Deepest nesting of one `payload` ({} and [] are one level). A 64 KB body can
 * nest 30,000 levels, which JSON.stringify cannot walk; 64 is far beyond any
 * real message and safe for every JSON library an agent may use.
 */
export const MAX_PAYLOAD_DEPTH = 64
/** Request body cap of the message routes: the payload cap plus room for `to` and JSON framing. */
export const MAX_MESSAGE_BODY_BYTES = MAX_PAYLOAD_BYTES + 1024
/** Default and largest number of messages one `GET /agents/messages` consumes. */
export const READ_DEFAULT_LIMIT = 100
export const READ_MAX_LIMIT = 500
/** Largest `ids` list of one ack. */
export const ACK_MAX_IDS = 1000

/** Sender id of messages the registry itself writes (delivery receipts). */
export const REGISTRY_SENDER = 'registry'

/** spec: Authentication 7; DECISIONS "Webhook" — header name and format `t=<unix>,v1=<hex>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Mesh-Signature'
/** Random bytes of a webhook secret (hex encoded: 64 chars). */
export const WEBHOOK_SECRET_BYTES = 32
export const WEBHOOK_URL_MAX_LENGTH = 2048
/** One delivery attempt may take this long before it counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000
/** Bytes of the receiver's answer we read (and ignore beyond the status). */
export const WEBHOOK_RESPONSE_MAX_BYTES = 16 * 1024
/** Backoff: 1 s, 2 s, 4 s … doubled per failed attempt, capped at one hour, with jitter. */
export const WEBHOOK_BACKOFF_BASE_MS = 1000
export const WEBHOOK_BACKOFF_MAX_MS = 60 * 60 * 1000
/** After this many failed attempts (~4 h of retrying) a delivery is dead-lettered. */
export const WEBHOOK_MAX_ATTEMPTS = 15
/** A claimed delivery is hidden from other workers this long (a crashed worker's claim expires). */
export const WEBHOOK_CLAIM_LEASE_MS = 60_000
/** How often the worker looks for due deliveries when nothing kicked it. */
export const WEBHOOK_POLL_INTERVAL_MS = 1000
/** Deliveries claimed per round and sent at once. */
export const WEBHOOK_BATCH = 16

/** Agent WebSocket path. spec: Registry side — `GET /v1/agents/ws?token=<JWT>`. */
export {AGENT_WS_PATH as WS_PATH} from '../../protocol/registry.js'
/** Frames above this are refused with an `error` frame (`frame_too_large`); the socket stays open. */
export const WS_MAX_FRAME_BYTES = MAX_PAYLOAD_BYTES + 1024
/** Frames above this close the socket (1009) without being read: protects memory. */
export const WS_HARD_MAX_FRAME_BYTES = 1024 * 1024
/** Server pings every socket this often; a socket that did not answer the previous ping is closed. */
export const WS_PING_INTERVAL_MS = 30_000
/** Client frames allowed per socket per window; above it an `error` frame `rate_limited`. */
export const WS_RATE_LIMIT = 120
export const WS_RATE_WINDOW_MS = 10_000
/** A socket whose unsent backlog grows past this is closed (`slow_consumer`). */
export const WS_MAX_BUFFERED_BYTES = 4 * 1024 * 1024
/** How long a node waits for another node to confirm a cross-node delivery before queueing it. */
export const WS_REMOTE_ACK_TIMEOUT_MS = 2000

/** Sends of inbox messages per agent per window (HTTP). */
export const SEND_RATE_LIMIT = 600
export const SEND_RATE_WINDOW_MS = 60_000

/** Nodes refresh their presence row this often; a node not seen for NODE_STALE_MS is gone. */
export const NODE_HEARTBEAT_MS = 5000
export const NODE_STALE_MS = 15_000

/** Bus subject of one registry node: live pushes for its sockets and the answers to its own pushes (prefixed per deployment by the bus). */
export const subjectOfNode = (nodeId: string) => `registry.node.${nodeId}`
/** Wakes every node's webhook worker when a delivery is queued. */
export const SUBJECT_WEBHOOK_KICK = 'registry.messaging.webhook-kick'

export {AGENT_ID_PATTERN, AGENT_ID_RULE} from '../../protocol/registry.js'
