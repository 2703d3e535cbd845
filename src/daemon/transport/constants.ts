/**
 * The transport area's numbers and names (docs/daemon.md, Transport).
 * spec cluster.yaml `transport`; cluster service "Member" (handle, vis).
 */

/** `MESH_DAEMON_TRANSPORT=off` keeps the daemon off the project's channel (tests, offline work). */
export const TRANSPORT_ENV = 'MESH_DAEMON_TRANSPORT'
/** Values of TRANSPORT_ENV that turn the transport off (any case). */
export const TRANSPORT_OFF_VALUES = ['off', '0', 'false', 'no'] as const

/** Debug-stream tags (spec: `transport.reconnect` is canonical; the others are its siblings). */
export const TAG_CONNECT = 'transport.connect'
export const TAG_RECONNECT = 'transport.reconnect'
export const TAG_CLOSED = 'transport.closed'
export const TAG_FAILED = 'transport.failed'
export const TAG_SKIPPED = 'transport.skipped'
export const TAG_FALLBACK = 'transport.fallback'

/** The /events type of a message heard on the project's cluster. */
export const MESSAGE_EVENT = 'transport.message'

/** Not connected for longer than this puts a line in /health `warnings[]`. */
export const DISCONNECTED_WARN_MS = 60_000

/** The daemon's handle on the cluster: `daemon:<cluster.yaml id>`. */
export const HANDLE_PREFIX = 'daemon:'
/**
 * The daemon listens as a ghost: not in the roster, not counted, never
 * announced (spec: cluster Visibility table), so it does not show up as a
 * chatting member, yet it reads every message.
 */
export const DAEMON_VIS = 'ghost'

/** `.mesh/credentials/invite.url` (DECISIONS: a private cluster's invite URL lives there). */
export const INVITE_FILE = ['credentials', 'invite.url'] as const
/** An invite file larger than this is not read (an invite URL is one short line). */
export const INVITE_MAX_BYTES = 8 * 1024

/** An http(s) endpoint is converted to ws(s) only when its path is a relay cluster socket. */
export const CLUSTER_SOCKET_PATH = /\/clusters\/([^/]+)\/ws\/?$/

/** Failed attempts in a row (without a connection) after which the daemon tries the other of `transport.endpoint` and `transport.fallback`. */
export const FAILOVER_AFTER_ATTEMPTS = 3
