/**
 * The chat-turn queues of a project (spec: Queue item (v16); Limits; Events
 * `queue.item.*`). Every change is a read-modify-write of
 * `.mesh/queues/<conv>.json` taken in turn per conv, checked against the
 * caller's `version` (optimistic concurrency), written atomically and then
 * announced on the event bus. docs/daemon-api.md, Queue; docs/daemon.md, Queue.
 *
 * Written through the project writer (atomic, inside `.mesh/` only): item
 * texts are the operator's words, so the snapshot it keeps of each rewrite
 * lets an unwanted edit or removal be undone (`mesh daemon restore
 * queues/<conv>.json`), and the file watcher knows these writes as the
 * daemon's own (no `file.changed` on top of `queue.item.*`). Git skips the
 * folder (deny-list).
 */
import {listContainedFolder} from '../../../lib/contained-files.js'
import {reportRefused} from '../../project-files.js'
import {conflict, notFound} from '../../../lib/errors.js'
import {createMutex, type Mutex} from '../../../lib/mutex.js'
import type {DaemonContext} from '../../context.js'
import {CONV_PATTERN, newId} from '../constants.js'
import {QUEUE_EVENTS, type QueueFile, type QueueItem, type QueueStatus} from '../../../protocol/queue.js'
import {INTERRUPTED_REASON, QUEUE_DEBUG_TAG, QUEUE_DIR, QUEUE_ITEM_PREFIX, QUEUE_MAX_ITEMS} from './constants.js'
import {checkText, readQueue, renumber} from './queue-file.js'

export type QueueContext = Pick<DaemonContext, 'meshPath' | 'clock' | 'events' | 'debug' | 'writer'>

/** `version`: the queue's version the caller last saw; a write against another one is 409 `version_conflict`. */
export interface Expect {
  version?: number
}

/** How a send ended: handed to the engine (`sent`), refused for good (`failed`) or for now (`queued` again). */
export type SendOutcome = {status: 'sent'; turn_id: string} | {status: 'failed'; reason: string} | {status: 'queued'}

export interface QueueStore {
  read(conv: string): Promise<QueueFile>
  /** Every queue that holds items (or is paused), by conv; a file that cannot be read is left out (reading its conv's queue says why). */
  list(): Promise<QueueFile[]>
  /** Appends a `queued` item; `member` is stored as the queue's member (409 `member_mismatch` against another one with items left). */
  add(conv: string, input: {text: string; member?: string} & Expect): Promise<QueueItem>
  edit(conv: string, id: string, input: {text: string} & Expect): Promise<QueueItem>
  /** Moves a queued item to index `position` of the file's items (past the end: last). */
  move(conv: string, id: string, input: {position: number} & Expect): Promise<QueueItem>
  /** Takes the item out of the queue; it is announced `cancelled`. */
  remove(conv: string, id: string, input?: Expect): Promise<QueueItem>
  /**
   * Marks an item `sending`: `id`'s (when its status is in `from`) or, without `id`, the head (first `queued` item).
   * Null when there is no head. Answers the queue's stored `member` with it.
   */
  claim(conv: string, options: {id?: string; from: QueueStatus[]} & Expect): Promise<{item: QueueItem; member?: string} | null>
  /** Ends a `sending` item; null when it is no longer in the file (removed by hand). */
  settle(conv: string, id: string, outcome: SendOutcome): Promise<QueueItem | null>
  /** Start-up: items a stopped daemon left `sending` become `failed` (never sent twice). Answers how many. */
  recover(): Promise<number>
  /**
   * Issue 19, Recovery: holds the queue after a failed turn of its conv, when it has queued items (an empty
   * queue has nothing to hold). The head is no longer sent by itself (`claim` without an id answers null)
   * until resume(). Answers whether it paused now.
   */
  pause(conv: string, pause: {reason: string; turn_id?: string}): Promise<boolean>
  /** Lets the queue go on again; 409 `queue_not_paused` when it is not paused. */
  resume(conv: string, input?: Expect): Promise<QueueFile>
}

interface Change<T> {
  result: T
  /** Unchanged queues are not written. */
  write: boolean
  /** `item` is announced as it is in the written file; pause and resume announce none. */
  events: Array<{type: string; item?: QueueItem; extra?: Record<string, unknown>}>
}

const stores = new WeakMap<object, QueueStore>()

/** The one queue store of a daemon: its routes and its dispatcher take turns on the same per-conv locks. */
export function queueStoreOf(context: QueueContext): QueueStore {
  let store = stores.get(context)
  if (!store) stores.set(context, (store = createQueueStore(context)))
  return store
}

export function createQueueStore(context: QueueContext): QueueStore {
  const locks = new Map<string, {mutex: Mutex; users: number}>()
  const fileOf = (conv: string) => `${QUEUE_DIR}/${conv}.json`
  /** A linked queue file is refused (409 `path_refused`) and said in the debug stream, never read (issue 18). */
  const readQueueFile = (conv: string) =>
    readQueue(context.meshPath(), fileOf(conv), conv).catch((error: unknown) => {
      reportRefused(context, error)
      throw error
    })
  const now = () => new Date(context.clock()).toISOString()
  /** The convs with a queue file: only names a conv id can have (an editor's `.x.json.tmp`, a stray `Notes.json` are not queues). */
  const queuedConvs = async () =>
    (await listContainedFolder(context.meshPath(), QUEUE_DIR).catch(() => []))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name.slice(0, -'.json'.length))
      .filter((conv) => CONV_PATTERN.test(conv))
      .sort()

  /** One read-modify-write of a conv at a time; idle convs hold no lock. */
  const locked = async <T>(conv: string, work: () => Promise<T>): Promise<T> => {
    const lock = locks.get(conv) ?? {mutex: createMutex(), users: 0}
    locks.set(conv, lock)
    lock.users++
    try {
      return await lock.mutex.run(work)
    } finally {
      if (--lock.users === 0) locks.delete(conv)
    }
  }

  const update = <T>(conv: string, expect: Expect, reason: string, change: (file: QueueFile) => Change<T>): Promise<T> =>
    locked(conv, async () => {
      const file = await readQueueFile(conv)
      if (expect.version !== undefined && expect.version !== file.version) {
        throw conflict('version_conflict', `The queue of ${conv} is at version ${file.version}, not ${expect.version}: read it again`, {details: {version: file.version}})
      }
      const done = change(file)
      if (!done.write) return done.result
      const next: QueueFile = {conv, version: file.version + 1, ...(file.member ? {member: file.member} : {}), state: file.paused ? 'paused' : 'active', ...(file.paused ? {paused: file.paused} : {}), items: renumber(file.items)}
      await context.writer.write(fileOf(conv), JSON.stringify(next, null, 2) + '\n', {reason})
      for (const event of done.events) {
        const announced = event.item
        const item = announced ? (next.items.find((candidate) => candidate.id === announced.id) ?? announced) : undefined
        context.events.publish(event.type, {conv, version: next.version, ...(item ? {item} : {}), ...event.extra})
      }
      return done.result
    })

  const find = (file: QueueFile, id: string): QueueItem => {
    const item = file.items.find((candidate) => candidate.id === id)
    if (!item) throw notFound('item_not_found', `No item ${id} in the queue of ${file.conv}`)
    return item
  }
  const mustBe = (item: QueueItem, statuses: QueueStatus[]) => {
    if (!statuses.includes(item.status)) throw conflict(`item_${item.status}`, `Item ${item.id} is ${item.status}; only ${statuses.join(' or ')} items can be changed this way`)
  }
  /** The item at its new place; `position` is filled in by renumber at the write. */
  const replace = (file: QueueFile, item: QueueItem) => (file.items = file.items.map((candidate) => (candidate.id === item.id ? item : candidate)))

  const store: QueueStore = {
    read: (conv) => locked(conv, () => readQueueFile(conv)),

    async add(conv, input) {
      const text = checkText(input.text)
      return update(conv, input, 'queue.add', (file) => {
        if (file.items.length >= QUEUE_MAX_ITEMS) throw conflict('queue_full', `The queue of ${conv} holds ${QUEUE_MAX_ITEMS} items, its limit: wait for some to be sent, or remove some`)
        if (input.member !== undefined && file.member !== undefined && input.member !== file.member && file.items.length > 0) {
          throw conflict('member_mismatch', `The queue of ${conv} runs with ${file.member}, not ${input.member}`, {field: 'member'})
        }
        if (input.member !== undefined) file.member = input.member
        let id = newId(QUEUE_ITEM_PREFIX)
        while (file.items.some((item) => item.id === id)) id = newId(QUEUE_ITEM_PREFIX)
        const item: QueueItem = {id, text, created_at: now(), position: file.items.length, status: 'queued'}
        file.items.push(item)
        return {result: item, write: true, events: [{type: QUEUE_EVENTS.added, item}]}
      })
    },

    async edit(conv, id, input) {
      const text = checkText(input.text)
      return update(conv, input, 'queue.edit', (file) => {
        const item = {...find(file, id)}
        mustBe(item, ['queued'])
        item.text = text
        replace(file, item)
        return {result: item, write: true, events: [{type: QUEUE_EVENTS.updated, item}]}
      })
    },

    move(conv, id, input) {
      return update(conv, input, 'queue.move', (file) => {
        const item = find(file, id)
        mustBe(item, ['queued'])
        const rest = file.items.filter((candidate) => candidate.id !== id)
        const position = Math.min(Math.max(0, input.position), rest.length)
        file.items = [...rest.slice(0, position), item, ...rest.slice(position)]
        const moved = {...item, position}
        return {result: moved, write: true, events: [{type: QUEUE_EVENTS.updated, item: moved}]}
      })
    },

    remove(conv, id, input = {}) {
      return update(conv, input, 'queue.remove', (file) => {
        const item = find(file, id)
        // A sending item is being handed to the engine right now: it cannot be taken back.
        mustBe(item, ['queued', 'failed'])
        file.items = file.items.filter((candidate) => candidate.id !== id)
        const cancelled: QueueItem = {...item, status: 'cancelled'}
        return {result: cancelled, write: true, events: [{type: QUEUE_EVENTS.removed, item: cancelled}]}
      })
    },

    claim(conv, options) {
      return update(conv, options, 'queue.send', (file) => {
        // A paused queue sends nothing by itself; a promote (by id) is the operator's own say and still goes.
        if (options.id === undefined && file.paused) return {result: null, write: false, events: []}
        const found = options.id === undefined ? file.items.find((item) => item.status === 'queued') : find(file, options.id)
        if (!found) return {result: null, write: false, events: []}
        mustBe(found, options.from)
        const item: QueueItem = {...found, status: 'sending'}
        delete item.failed_reason
        replace(file, item)
        return {result: {item, ...(file.member ? {member: file.member} : {})}, write: true, events: [{type: QUEUE_EVENTS.updated, item}]}
      })
    },

    settle(conv, id, outcome) {
      return update(conv, {}, 'queue.send', (file) => {
        const found = file.items.find((item) => item.id === id)
        if (!found || found.status !== 'sending') return {result: null, write: false, events: []}
        if (outcome.status === 'sent') {
          // spec Limits count a queue's items: a sent item leaves the file (the timeline has its turn), announced once.
          file.items = file.items.filter((item) => item.id !== id)
          const sent: QueueItem = {...found, status: 'sent', sent_at: now()}
          return {result: sent, write: true, events: [{type: QUEUE_EVENTS.sent, item: sent, extra: {turn_id: outcome.turn_id}}]}
        }
        const item: QueueItem = outcome.status === 'failed' ? {...found, status: 'failed', failed_reason: outcome.reason} : {...found, status: 'queued'}
        replace(file, item)
        return {result: item, write: true, events: [{type: QUEUE_EVENTS.updated, item}]}
      })
    },

    pause(conv, pause) {
      return update(conv, {}, 'queue.pause', (file) => {
        if (file.paused || !file.items.some((item) => item.status === 'queued')) return {result: false, write: false, events: []}
        file.paused = {reason: pause.reason, ...(pause.turn_id ? {turn_id: pause.turn_id} : {}), at: now()}
        return {result: true, write: true, events: [{type: QUEUE_EVENTS.paused, extra: {paused: file.paused}}]}
      })
    },

    resume(conv, input = {}) {
      return update(conv, input, 'queue.resume', (file) => {
        if (!file.paused) throw conflict('queue_not_paused', `The queue of ${conv} is not paused`)
        delete file.paused
        const items = file.items.filter((item) => item.status === 'queued').length
        return {result: {...file, state: 'active' as const, version: file.version + 1, items: renumber(file.items)}, write: true, events: [{type: QUEUE_EVENTS.resumed, extra: {queued: items}}]}
      })
    },

    async list() {
      const files: QueueFile[] = []
      for (const conv of await queuedConvs()) {
        const file = await readQueueFile(conv).catch(() => null)
        if (file && (file.items.length > 0 || file.paused)) files.push(file)
      }
      return files
    },

    async recover() {
      let recovered = 0
      for (const conv of await queuedConvs()) {
        try {
          recovered += await update(conv, {}, 'queue.recover', (file) => {
            const stuck = file.items.filter((item) => item.status === 'sending')
            const failed = stuck.map((item): QueueItem => ({...item, status: 'failed', failed_reason: INTERRUPTED_REASON}))
            for (const item of failed) replace(file, item)
            return {result: failed.length, write: failed.length > 0, events: failed.map((item) => ({type: QUEUE_EVENTS.updated, item}))}
          })
        } catch (error) {
          context.debug.log({lvl: 'warn', tag: QUEUE_DEBUG_TAG.recover, conv, msg: `queue ${conv}.json not recovered: ${(error as Error).message}`})
        }
      }
      return recovered
    },
  }
  return store
}
