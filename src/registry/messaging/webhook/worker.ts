import type {SafeFetchOptions, SafeResponse} from '../../../http/safe-fetch.js'
import {isMeshError} from '../../../lib/errors.js'
import type {Logger} from '../../../lib/log.js'
import {NO_REGISTRY_METRICS, type RegistryMetrics} from '../../metrics.js'
import {
  WEBHOOK_BATCH,
  WEBHOOK_CLAIM_LEASE_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_POLL_INTERVAL_MS,
  WEBHOOK_RESPONSE_MAX_BYTES,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMEOUT_MS,
} from '../constants.js'
import type {Delivery, MessagingStore} from '../store/store.js'
import {webhookBackoffMs} from './backoff.js'
import {signWebhook} from './signature.js'

/** The outbound fetch the worker uses: src/http/safe-fetch.ts in production. */
export type WebhookFetch = (url: string, options: SafeFetchOptions) => Promise<SafeResponse>

export interface WebhookWorkerOptions {
  store: MessagingStore
  clock: () => number
  logger: Logger
  fetch: WebhookFetch
  /** Deliver to private/loopback addresses (development, tests). Default false. */
  allowPrivate?: boolean
  maxAttempts?: number
  /** Called with the deliveries a receiver accepted in one round (delivery receipts). */
  onDelivered?(deliveries: Delivery[]): Promise<void>
  pollIntervalMs?: number
  timeoutMs?: number
  random?: () => number
  /** Counts deliveries, retries and dead letters; default nothing. */
  metrics?: RegistryMetrics
}

export interface WebhookWorker {
  start(): void
  /** Runs a round soon (a delivery was just queued). */
  kick(): void
  /** Claims and sends one batch of due deliveries; resolves with how many were attempted. */
  runOnce(): Promise<number>
  /** Resolves once no round is in flight (tests). */
  idle(): Promise<void>
  /** Stops the loop and waits for the round in flight. */
  close(): Promise<void>
}

/** One attempt's outcome: undefined on success, else a short reason for the agent to read. */
async function attempt(delivery: Delivery, options: WebhookWorkerOptions): Promise<string | undefined> {
  // DECISIONS "Webhook": the body is the inbox message {id, from, payload, ts}, signed over its exact bytes.
  const body = JSON.stringify({id: delivery.id, from: delivery.from, payload: delivery.payload, ts: delivery.ts})
  const t = Math.floor(options.clock() / 1000)
  try {
    const response = await options.fetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhook(delivery.secret, body, t),
        'x-mesh-message-id': String(delivery.id),
        'x-mesh-delivery-attempt': String(delivery.attempts),
      },
      body,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      maxBytes: WEBHOOK_RESPONSE_MAX_BYTES,
      // A redirected POST is ambiguous; the receiver must answer at the URL it registered.
      maxRedirects: 0,
      allowPrivate: options.allowPrivate ?? false,
    })
    if (response.status >= 200 && response.status < 300) return undefined
    return `HTTP ${response.status}`
  } catch (error) {
    return isMeshError(error) ? `${error.code}: ${error.message}`.slice(0, 300) : 'delivery failed'
  }
}

/**
 * Sends queued messages to agents' webhooks: claims due deliveries from the
 * store (so retries survive restarts and several nodes share the queue),
 * signs each, retries failures with exponential backoff and dead-letters a
 * delivery after the last attempt.
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const maxAttempts = options.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS
  const metrics = options.metrics ?? NO_REGISTRY_METRICS
  let timer: NodeJS.Timeout | undefined
  let running: Promise<number> | undefined
  let started = false
  let again = false

  const runOnce = async (): Promise<number> => {
    const now = options.clock()
    const batch = await options.store.claimDeliveries(now, WEBHOOK_BATCH, WEBHOOK_CLAIM_LEASE_MS)
    const delivered: Delivery[] = []
    await Promise.all(
      batch.map(async (delivery) => {
        const failure = await attempt(delivery, options)
        const at = options.clock()
        if (failure === undefined) {
          delivered.push(delivery)
          return options.store.completeDelivery(delivery.id)
        }
        const retryAt = delivery.attempts >= maxAttempts ? null : at + webhookBackoffMs(delivery.attempts, options.random)
        if (retryAt === null) {
          options.logger.warn('webhook delivery dead-lettered', {agent_id: delivery.to, message_id: delivery.id, error: failure})
          metrics.messageDeadLettered()
        } else metrics.webhookRetry()
        return options.store.failDelivery(delivery.id, failure, retryAt, at)
      }),
    )
    if (delivered.length > 0) metrics.messagesDelivered('webhook', delivered.length)
    if (delivered.length > 0) await options.onDelivered?.(delivered.sort((a, b) => a.id - b.id))
    return batch.length
  }

  const schedule = (delayMs: number) => {
    if (!started) return
    clearTimeout(timer)
    timer = setTimeout(loop, delayMs)
    timer.unref?.()
  }

  const loop = () => {
    if (running) {
      again = true
      return
    }
    again = false
    running = runOnce().catch((error) => {
      options.logger.error('webhook worker round failed', {error: String((error as Error)?.message ?? error)})
      return 0
    })
    void running.then((count) => {
      running = undefined
      // A full batch means more may be due right now.
      schedule(again || count === WEBHOOK_BATCH ? 0 : (options.pollIntervalMs ?? WEBHOOK_POLL_INTERVAL_MS))
    })
  }

  return {
    start() {
      if (started) return
      started = true
      schedule(0)
    },
    kick() {
      if (running) again = true
      else schedule(0)
    },
    runOnce,
    async idle() {
      while (running) await running
    },
    async close() {
      started = false
      clearTimeout(timer)
      await running
    },
  }
}
