/**
 * The messaging store: inbox messages, webhook settings, the webhook delivery
 * queue and WebSocket presence (node rows and their sweep: the shared
 * NodeTable of src/store/nodes/). One interface, three adapters (this file's
 * in-memory one, sqlite.ts, postgres.ts), all in the registry's database.
 *
 * A message lives in exactly one place at a time, its `state`:
 * - `inbox`   waiting for `GET /agents/messages` (consumed on read);
 * - `webhook` queued for delivery to the agent's webhook (with attempts and
 *   next_attempt, so retries survive restarts);
 * - `dead`    gave up after the last attempt; visible to the agent, and moved
 *   back to `inbox` when the webhook is removed.
 * spec: "Receiving: use polling or webhook, not both."
 */
import {createMemoryNodeTable, type NodeTable} from '../../../store/nodes/table.js'

/** An inbox message as the spec shows it. spec: "Inbox message" `{id, from, payload, ts}`. */
export interface InboxMessage {
  /** Monotonic integer id, unique in the deployment. */
  id: number
  from: string
  payload: unknown
  /** ISO-8601 UTC (DECISIONS "Time"). */
  ts: string
}

export interface StoredMessage extends InboxMessage {
  to: string
}

export type MessageRoute = 'inbox' | 'webhook'

export interface NewMessage {
  /** An id from {@link MessagingStore.prepareLive}; omitted, the store allocates one. */
  id?: number
  to: string
  from: string
  payload: unknown
  ts: string
}

export interface WebhookRecord {
  agentId: string
  url: string
  secret: string
  createdAt: string
}

/** A claimed webhook delivery: the message plus where and how to sign it. */
export interface Delivery extends StoredMessage {
  /** Attempts including the current one. */
  attempts: number
  url: string
  secret: string
}

export interface DeadLetter extends StoredMessage {
  attempts: number
  lastError: string | null
  /** ISO time of the last attempt. */
  deadAt: string
}

export interface PendingCounts {
  inbox: number
  webhook: number
  dead: number
}

/** The node rows are `messaging_nodes`; presence rows (`messaging_presence`, one per agent and node) hang on them. */
export interface MessagingStore extends NodeTable {
  /** Stores a message for `to`: queued for the webhook when one is set, else in the inbox. */
  insert(message: NewMessage, now: number): Promise<{message: StoredMessage; route: MessageRoute}>
  /**
   * For a live (WebSocket) message: allocates its id from the same sequence
   * as stored messages, and lists the fresh nodes holding a socket of `to`,
   * in one round trip. The id is reused if the message falls back to the store.
   */
  prepareLive(to: string, freshSince: number): Promise<{id: number; nodes: string[]}>
  /** Removes and returns up to `limit` inbox messages of the agent, oldest first. */
  consume(agentId: string, limit: number): Promise<StoredMessage[]>
  /** Removes the agent's inbox messages with these ids; returns what was removed (unknown ids are skipped). */
  ack(agentId: string, ids: number[]): Promise<StoredMessage[]>
  counts(agentId: string): Promise<PendingCounts>

  /** Sets (or replaces) the webhook and moves the inbox backlog into the delivery queue. */
  setWebhook(agentId: string, url: string, secret: string, now: number): Promise<{moved: number}>
  /** Removes the webhook; queued and dead deliveries go back to the inbox. */
  removeWebhook(agentId: string): Promise<{removed: boolean; moved: number}>
  getWebhook(agentId: string): Promise<WebhookRecord | undefined>

  /**
   * Claims up to `limit` due deliveries (state webhook, next_attempt ≤ now):
   * counts the attempt and hides them for `leaseMs`, so a crashed worker's
   * claim comes back and two nodes never send the same delivery at once.
   * A due message whose agent has no webhook any more goes back to the inbox.
   */
  claimDeliveries(now: number, limit: number, leaseMs: number): Promise<Delivery[]>
  /** The delivery succeeded: the message is gone. */
  completeDelivery(id: number): Promise<void>
  /** The attempt failed: retry at `retryAt`, or dead-letter when `retryAt` is null. */
  failDelivery(id: number, error: string, retryAt: number | null, now: number): Promise<void>
  listDeadLetters(agentId: string, limit: number): Promise<DeadLetter[]>
  /** Puts the agent's dead letters back in the queue with fresh attempts; returns how many. */
  requeueDeadLetters(agentId: string, now: number): Promise<number>

  /** WebSocket presence: which nodes hold a socket of an agent (multi-node routing). */
  addPresence(agentId: string, nodeId: string, now: number): Promise<void>
  removePresence(agentId: string, nodeId: string): Promise<void>
  /** Nodes holding a socket of the agent that were seen since `freshSince` (ms). */
  nodesOf(agentId: string, freshSince: number): Promise<string[]>
}

interface MemoryRow extends StoredMessage {
  state: 'inbox' | 'webhook' | 'dead'
  attempts: number
  nextAttemptAt: number
  lastAttemptAt: number
  lastError: string | null
}

const copy = (row: MemoryRow): StoredMessage => ({id: row.id, to: row.to, from: row.from, payload: structuredClone(row.payload), ts: row.ts})

/** The in-memory store: tests, and a registry started without a database. Several in-process registries may share one. */
export function createMemoryMessagingStore(): MessagingStore {
  let nextId = 1
  const rows = new Map<number, MemoryRow>() // Map keeps insertion order = id order
  const webhooks = new Map<string, WebhookRecord>()
  const presence = new Map<string, Map<string, number>>() // agent → node → since
  const nodes = createMemoryNodeTable({
    count: (nodeId) => [...presence.values()].filter((holders) => holders.has(nodeId)).length,
    drop(nodeId) {
      for (const [agentId, holders] of presence) {
        holders.delete(nodeId)
        if (holders.size === 0) presence.delete(agentId)
      }
    },
  })
  const ofAgent = (agentId: string, state: MemoryRow['state']) =>
    [...rows.values()].filter((row) => row.to === agentId && row.state === state)

  return {
    ...nodes,
    async insert(message, now) {
      const route: MessageRoute = webhooks.has(message.to) ? 'webhook' : 'inbox'
      const row: MemoryRow = {to: message.to, from: message.from, ts: message.ts, payload: structuredClone(message.payload ?? null), id: message.id ?? nextId++, state: route, attempts: 0, nextAttemptAt: now, lastAttemptAt: 0, lastError: null}
      rows.set(row.id, row)
      return {message: copy(row), route}
    },
    async prepareLive(to, freshSince) {
      return {id: nextId++, nodes: await this.nodesOf(to, freshSince)}
    },
    async consume(agentId, limit) {
      const taken = ofAgent(agentId, 'inbox').slice(0, limit)
      for (const row of taken) rows.delete(row.id)
      return taken.map(copy)
    },
    async ack(agentId, ids) {
      const removed: StoredMessage[] = []
      for (const id of new Set(ids)) {
        const row = rows.get(id)
        if (row && row.to === agentId && row.state === 'inbox') {
          rows.delete(id)
          removed.push(copy(row))
        }
      }
      return removed.sort((a, b) => a.id - b.id)
    },
    async counts(agentId) {
      return {inbox: ofAgent(agentId, 'inbox').length, webhook: ofAgent(agentId, 'webhook').length, dead: ofAgent(agentId, 'dead').length}
    },
    async setWebhook(agentId, url, secret, now) {
      webhooks.set(agentId, {agentId, url, secret, createdAt: new Date(now).toISOString()})
      const backlog = ofAgent(agentId, 'inbox')
      for (const row of backlog) Object.assign(row, {state: 'webhook', attempts: 0, nextAttemptAt: now, lastError: null})
      return {moved: backlog.length}
    },
    async removeWebhook(agentId) {
      const removed = webhooks.delete(agentId)
      const queued = [...ofAgent(agentId, 'webhook'), ...ofAgent(agentId, 'dead')]
      for (const row of queued) Object.assign(row, {state: 'inbox', attempts: 0, lastError: null})
      return {removed, moved: queued.length}
    },
    async getWebhook(agentId) {
      const hook = webhooks.get(agentId)
      return hook && {...hook}
    },
    async claimDeliveries(now, limit, leaseMs) {
      const due = [...rows.values()]
        .filter((row) => row.state === 'webhook' && row.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.id - b.id)
      const claimed: Delivery[] = []
      for (const row of due) {
        if (claimed.length >= limit) break
        const hook = webhooks.get(row.to)
        if (!hook) {
          Object.assign(row, {state: 'inbox', attempts: 0, lastError: null})
          continue
        }
        Object.assign(row, {attempts: row.attempts + 1, nextAttemptAt: now + leaseMs, lastAttemptAt: now})
        claimed.push({...copy(row), attempts: row.attempts, url: hook.url, secret: hook.secret})
      }
      return claimed
    },
    async completeDelivery(id) {
      if (rows.get(id)?.state === 'webhook') rows.delete(id)
    },
    async failDelivery(id, error, retryAt, now) {
      const row = rows.get(id)
      if (!row || row.state !== 'webhook') return
      Object.assign(row, retryAt === null ? {state: 'dead', lastError: error, lastAttemptAt: now} : {nextAttemptAt: retryAt, lastError: error, lastAttemptAt: now})
    },
    async listDeadLetters(agentId, limit) {
      return ofAgent(agentId, 'dead')
        .slice(0, limit)
        .map((row) => ({...copy(row), attempts: row.attempts, lastError: row.lastError, deadAt: new Date(row.lastAttemptAt).toISOString()}))
    },
    async requeueDeadLetters(agentId, now) {
      const dead = ofAgent(agentId, 'dead')
      for (const row of dead) Object.assign(row, {state: 'webhook', attempts: 0, nextAttemptAt: now, lastError: null})
      return dead.length
    },
    async addPresence(agentId, nodeId, now) {
      let holders = presence.get(agentId)
      if (!holders) presence.set(agentId, (holders = new Map()))
      if (!holders.has(nodeId)) holders.set(nodeId, now)
    },
    async removePresence(agentId, nodeId) {
      const holders = presence.get(agentId)
      holders?.delete(nodeId)
      if (holders?.size === 0) presence.delete(agentId)
    },
    async nodesOf(agentId, freshSince) {
      return [...(presence.get(agentId)?.keys() ?? [])].filter((node) => nodes.isLive(node, freshSince)).sort()
    },
  }
}
