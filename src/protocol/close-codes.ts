/**
 * Every WebSocket close code a mesh server sends, in one table (docs/relay.md
 * and docs/messaging.md, Close codes). 1000–1011 are RFC 6455's; 4000 is
 * mesh's own, from the range the RFC leaves to applications.
 */
export const CLOSE_CODES = {
  /** Normal closure: the relay closed an idle socket, or the client said goodbye. */
  normal: 1000,
  /** Going away: the server is shutting down; reconnect (to another node). */
  goingAway: 1001,
  /** Policy violation: a slow consumer, or a token or frame the server refuses; do not retry unchanged. */
  policy: 1008,
  /** Internal error: the server cannot serve this socket now (storage down); retry later. */
  internal: 1011,
  /** The cluster was deleted (after `closed {reason: "deleted"}`): never reconnect. */
  clusterDeleted: 4000,
} as const

export type CloseCode = (typeof CLOSE_CODES)[keyof typeof CLOSE_CODES]
