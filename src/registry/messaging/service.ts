import {forbidden, invalid, notFound, tooLarge, conflict} from '../../lib/errors.js'
import type {Logger} from '../../lib/log.js'
import {NO_REGISTRY_METRICS, type RegistryMetrics} from '../metrics.js'
import {assertStorableJson} from '../../lib/storable-json.js'
import {nestsDeeperThan} from '../card.js'
import {ACK_MAX_IDS, AGENT_ID_PATTERN, AGENT_ID_RULE, MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH, READ_DEFAULT_LIMIT, READ_MAX_LIMIT, REGISTRY_SENDER} from './constants.js'
import type {InboxMessage, MessageRoute, MessagingStore, StoredMessage} from './store/store.js'
import {newWebhookSecret} from './webhook/signature.js'
import type {ServerFrame} from './ws/frames.js'
import {checkWebhookUrl} from './webhook/url.js'

/** How a delivery receipt reached its reader: consumed by a read, acked, or accepted by the webhook. */
export type ReceiptVia = 'read' | 'ack' | 'webhook'

/** Payload of a delivery receipt (an inbox message from `registry`, or a WS `receipt` frame). */
export interface ReceiptPayload {
  type: 'receipt'
  message_ids: number[]
  read_by: string
  at: string
  via: ReceiptVia
}

/** Pushes a frame to an agent's live WebSockets on any node; resolves with the sockets reached (0 = not connected). */
export type LivePush = (agentId: string, frame: ServerFrame) => Promise<number>

export interface MessagingServiceOptions {
  store: MessagingStore
  clock: () => number
  logger: Logger
  agentExists(agentId: string): Promise<boolean>
  /** Wakes the webhook worker after a message was queued for a webhook. */
  onQueued?(): void
  /** Live delivery of receipts; without it receipts always go to the inbox/webhook. */
  livePush?: LivePush
  allowPrivateWebhooks?: boolean
  /** What messaging counts (accepted, queued, delivered by read or ack); default nothing. */
  metrics?: RegistryMetrics
}

export interface WebhookStatus {
  webhook: {url: string; created_at: string} | null
  pending: {inbox: number; webhook: number; dead: number}
  dead_letters: Array<InboxMessage & {attempts: number; last_error: string | null; dead_at: string}>
}

const wire = (message: StoredMessage): InboxMessage => ({id: message.id, from: message.from, payload: message.payload, ts: message.ts})

/** Checks `to` and `payload` of a message; returns the payload's serialized size. */
export function checkMessage(to: unknown, payload: unknown): asserts to is string {
  if (typeof to !== 'string' || !AGENT_ID_PATTERN.test(to)) throw invalid('invalid_recipient', `\`to\` must be an agent id (${AGENT_ID_RULE})`, {field: 'to'})
  if (payload === undefined) throw invalid('missing_payload', '`payload` is required (any JSON value)', {field: 'payload'})
  // Before any serialization: a deeper payload would overflow JSON.stringify's stack (a 500, not a 400).
  if (nestsDeeperThan(payload, MAX_PAYLOAD_DEPTH)) {
    throw invalid('payload_too_deep', `payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels`, {field: 'payload'})
  }
  // `1e309` parses as Infinity, which JSON text would carry on as null.
  assertStorableJson(payload, 'payload', {text: false})
  // spec: Model B messaging carries any JSON; mesh caps one payload at 64 KB.
  const size = Buffer.byteLength(JSON.stringify(payload))
  if (size > MAX_PAYLOAD_BYTES) throw tooLarge('payload_too_large', `payload is ${size} bytes; the limit is ${MAX_PAYLOAD_BYTES}`, {field: 'payload'})
}

/**
 * The store-and-forward half of the message bus, free of HTTP: send into an
 * inbox (or webhook queue), consume on read with receipts to the senders,
 * ack, and webhook settings. Routes and the WebSocket call into it.
 */
export function createMessagingService(options: MessagingServiceOptions) {
  const iso = () => new Date(options.clock()).toISOString()
  const metrics = options.metrics ?? NO_REGISTRY_METRICS

  /** Stores a message for `to`: webhook queue when one is set, else the inbox. */
  async function enqueue(from: string, to: string, payload: unknown, id?: number): Promise<{message: StoredMessage; route: MessageRoute}> {
    const stored = await options.store.insert({id, to, from, payload, ts: iso()}, options.clock())
    metrics.messageQueued(stored.route)
    if (stored.route === 'webhook') options.onQueued?.()
    return stored
  }

  /**
   * spec Events "Delivery receipt": each sender learns which of its messages
   * were read. Live senders get a WS `receipt` frame; the others an inbox
   * message from `registry`. The registry's own messages get no receipts.
   */
  async function sendReceipts(reader: string, messages: Pick<StoredMessage, 'id' | 'from'>[], via: ReceiptVia): Promise<void> {
    const bySender = new Map<string, number[]>()
    for (const {id, from} of messages) {
      if (from === REGISTRY_SENDER) continue
      bySender.set(from, [...(bySender.get(from) ?? []), id])
    }
    for (const [sender, ids] of bySender) {
      const receipt: ReceiptPayload = {type: 'receipt', message_ids: ids, read_by: reader, at: iso(), via}
      try {
        const reached = (await options.livePush?.(sender, receipt)) ?? 0
        if (reached === 0) await enqueue(REGISTRY_SENDER, sender, receipt)
      } catch (error) {
        // A receipt is advisory: losing one must not fail the read that caused it.
        options.logger.warn('delivery receipt not sent', {sender, error: String((error as Error)?.message ?? error)})
      }
    }
  }

  return {
    enqueue,
    sendReceipts,
    agentExists: (agentId: string) => options.agentExists(agentId),
    counts: (agentId: string) => options.store.counts(agentId),

    /** `POST /agents/messages`. */
    async send(from: string, to: unknown, payload: unknown): Promise<{ok: true; message_id: number}> {
      checkMessage(to, payload)
      if (from === REGISTRY_SENDER) throw forbidden('reserved_sender', `The id ${REGISTRY_SENDER} is reserved for the registry's own messages`)
      if (!(await options.agentExists(to))) throw notFound('unknown_recipient', `No agent ${to} is registered`, {field: 'to'})
      const {message} = await enqueue(from, to, payload)
      metrics.messageAccepted('http')
      return {ok: true, message_id: message.id}
    },

    /** `GET /agents/messages`: consumes up to `limit` messages. DECISIONS: 409 `webhook_active` while a webhook is set. */
    async read(agentId: string, limitParam?: unknown): Promise<{messages: InboxMessage[]}> {
      let limit = READ_DEFAULT_LIMIT
      if (limitParam !== undefined && limitParam !== '') {
        // Digits only: Number() would also take `0x10`, `1e2` and ` 5`.
        limit = typeof limitParam === 'number' ? limitParam : typeof limitParam === 'string' && /^[0-9]{1,5}$/.test(limitParam) ? Number(limitParam) : Number.NaN
        if (!Number.isInteger(limit) || limit < 1 || limit > READ_MAX_LIMIT) throw invalid('invalid_limit', `limit must be an integer from 1 to ${READ_MAX_LIMIT}`, {field: 'limit'})
      }
      if (await options.store.getWebhook(agentId)) {
        throw conflict('webhook_active', 'A webhook is set for this agent: messages are delivered there. Remove it (PATCH me with {"webhook": {"url": null}}) to poll.')
      }
      const messages = await options.store.consume(agentId, limit)
      if (messages.length > 0) metrics.messagesDelivered('read', messages.length)
      if (messages.length > 0) await sendReceipts(agentId, messages, 'read')
      return {messages: messages.map(wire)}
    },

    /** `POST /agents/messages/ack`: removes the given inbox messages without returning them. */
    async ack(agentId: string, ids: unknown): Promise<{ok: true; acked: number}> {
      if (!Array.isArray(ids) || ids.length > ACK_MAX_IDS || !ids.every((id) => Number.isSafeInteger(id) && id > 0)) {
        throw invalid('invalid_ids', `ids must be an array of at most ${ACK_MAX_IDS} positive integer message ids`, {field: 'ids'})
      }
      const removed = await options.store.ack(agentId, ids as number[])
      if (removed.length > 0) metrics.messagesDelivered('ack', removed.length)
      if (removed.length > 0) await sendReceipts(agentId, removed, 'ack')
      return {ok: true, acked: removed.length}
    },

    /** The core's PATCH me hook: `url` null removes the webhook. A fresh secret comes back on every set. */
    async setWebhook(agentId: string, url: unknown): Promise<{webhook_secret?: string}> {
      if (url === null) {
        await options.store.removeWebhook(agentId)
        return {}
      }
      const checked = checkWebhookUrl(url, options.allowPrivateWebhooks ?? false)
      const secret = newWebhookSecret()
      const {moved} = await options.store.setWebhook(agentId, checked, secret, options.clock())
      if (moved > 0) options.onQueued?.()
      return {webhook_secret: secret}
    },

    /** `GET /v1/agents/me/webhook`: the webhook, queue sizes and dead letters. The secret is never shown again. */
    async webhookStatus(agentId: string, limit = 100): Promise<WebhookStatus> {
      const [hook, pending, dead] = await Promise.all([
        options.store.getWebhook(agentId),
        options.store.counts(agentId),
        options.store.listDeadLetters(agentId, limit),
      ])
      return {
        webhook: hook ? {url: hook.url, created_at: hook.createdAt} : null,
        pending,
        dead_letters: dead.map((d) => ({...wire(d), attempts: d.attempts, last_error: d.lastError, dead_at: d.deadAt})),
      }
    },

    /** `POST /v1/agents/me/webhook/retry`: dead letters go back into the queue. */
    async retryDeadLetters(agentId: string): Promise<{ok: true; requeued: number}> {
      if (!(await options.store.getWebhook(agentId))) throw conflict('no_webhook', 'No webhook is set; dead letters went back to the inbox when it was removed')
      const requeued = await options.store.requeueDeadLetters(agentId, options.clock())
      if (requeued > 0) options.onQueued?.()
      return {ok: true, requeued}
    },
  }
}

export type MessagingService = ReturnType<typeof createMessagingService>
