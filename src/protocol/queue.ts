/**
 * A conversation's queue as its file holds it, `.mesh/queues/<conv>.json`
 * (spec: Queue item (v16); schemas/queue.schema.json), as the queue routes
 * answer it, and as the `queue.*` events carry it (spec: Events). The daemon
 * writes it (src/daemon/chat/queue/); `mesh queue` and `mesh team watch`
 * read it. docs/daemon-api.md, Queue. Nothing here imports anything.
 */

/** spec v16 status enum. */
export const QUEUE_STATUSES = ['queued', 'sending', 'sent', 'failed', 'cancelled'] as const
export type QueueStatus = (typeof QUEUE_STATUSES)[number]

/** spec Events: the four queue broadcasts. */
export const QUEUE_EVENTS = {
  added: 'queue.item.added',
  updated: 'queue.item.updated',
  removed: 'queue.item.removed',
  sent: 'queue.item.sent',
  /** Issue 19: a failed turn paused the queue; the operator resumed it. */
  paused: 'queue.paused',
  resumed: 'queue.resumed',
} as const

export interface QueueItem {
  id: string
  text: string
  created_at: string
  /** 0-based index of the item in the file's `items` (queue order); rewritten on every write. */
  position: number
  status: QueueStatus
  sent_at?: string
  failed_reason?: string
}

/** Why a queue holds (issue 19, Recovery): the failed turn that paused it, in words. */
export interface QueuePause {
  reason: string
  turn_id?: string
  at: string
}

export interface QueueFile {
  conv: string
  /** Write counter: 0 before the first write, +1 on each (optimistic concurrency, `version` in write bodies). */
  version: number
  /** Additive: the member this conv's items run with when the chat engine does not know the conv. */
  member?: string
  /** Additive (issue 19): `paused` after a failed turn of the conv — nothing is sent by itself until the operator resumes it. */
  state: 'active' | 'paused'
  /** Additive: why, while `state` is `paused`. */
  paused?: QueuePause
  items: QueueItem[]
}

/** `GET /chat/queues`: every queue holding items (or paused), by conv. */
export interface QueueList {
  queues: QueueFile[]
}

/** `queue.item.added|updated|removed|sent` (`sent` adds the `turn_id` of the turn that took the item). */
export interface QueueEventData {
  conv: string
  version: number
  item: QueueItem
  turn_id?: string
}

/** `queue.paused`: a failed turn holds the queue (issue 19). */
export interface QueuePausedData {
  conv: string
  version: number
  paused: QueuePause
}

/** `queue.resumed`: the operator let it go on. */
export interface QueueResumedData {
  conv: string
  version: number
  /** Items still queued. */
  queued: number
}
