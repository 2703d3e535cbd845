/**
 * The chat-turn queue's numbers and names (spec: Queue item (v16); Limits —
 * "50 items per queue; 64 KB per item text"). docs/daemon-api.md, Queue.
 */

/** spec Limits: items a queue file holds. Sent and cancelled items leave the file, so this counts unfinished ones. */
export const QUEUE_MAX_ITEMS = 50
/** spec Limits: 64 KB per item text, counted in UTF-8 bytes (what the file holds), not characters. */
export const QUEUE_MAX_TEXT_BYTES = 64 * 1024
/** `.mesh/queues/<conv>.json` (on the deny-list: never committed). */
export const QUEUE_DIR = 'queues'
/** Item ids: `q-` and 48 random bits in hex. */
export const QUEUE_ITEM_PREFIX = 'q-'

/** Debug-stream tags of the queue (kebab-case, dotted sub-namespaces). */
export const QUEUE_DEBUG_TAG = {dispatch: 'queue.dispatch', recover: 'queue.recover', pause: 'queue.pause'} as const

/** What an item left `sending` by a stopped daemon says: the turn may or may not have started, so it is not sent twice. */
export const INTERRUPTED_REASON = 'interrupted: the daemon stopped while sending this item; promote it to send it again'
