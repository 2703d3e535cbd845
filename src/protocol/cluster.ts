/**
 * The relay's wire rules that the relay and its clients share (docs/relay.md,
 * Limits and Frames). Nothing here imports anything.
 */

/** spec: cluster Limits — a message or frame is at most 64 KB; larger content is chunked. */
export const MAX_FRAME_BYTES = 64 * 1024

/** Caps on the self-asserted handle and did of a member (docs/relay.md, Limits). */
export const MAX_HANDLE_LENGTH = 128
export const MAX_DID_LENGTH = 512

/** Cluster and board slugs: kebab-case, lower-case latin letters and digits (DECISIONS: Slug). */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** `closed.reason` values (DECISIONS: closed.reason); after `deleted` a client must not reconnect. */
export type ClosedReason = 'deleted' | 'slow_consumer' | 'server_shutdown' | 'idle'
export const REASON_DELETED: ClosedReason = 'deleted'
