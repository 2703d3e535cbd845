/**
 * The registry message bus (spec "Model B messaging"): inbox with receipts,
 * signed webhooks with retries, the agent WebSocket, and routing between
 * registry nodes. Built from the RegistryContext as one RegistryPart.
 */
import {safeFetch} from '../../http/safe-fetch.js'
import type {RegistryContext, RegistryPart} from '../types.js'
import {createMessagingRoutes, type ChannelBroadcaster} from './routes.js'
import {createMessagingService, type MessagingService} from './service.js'
import {createMemoryMessagingStore, type Delivery, type MessagingStore} from './store/store.js'
import {createWebhookWorker, type WebhookFetch} from './webhook/worker.js'
import {SUBJECT_WEBHOOK_KICK} from './constants.js'
import {createLiveRouter} from './ws/router.js'
import {createAgentSocketServer} from './ws/server.js'

export interface MessagingPartOptions {
  /**
   * The messaging store, on the registry's own database handle:
   * `createSqliteMessagingStore(db)` or `await createPostgresMessagingStore(pool)`.
   * Default: in-memory (single process, lost on exit).
   */
  store?: MessagingStore
  /** Broadcast on a cluster's wall for `POST /agents/channels/<cluster_id>/send`; absent → 404 `unknown_channel`. */
  channels?: ChannelBroadcaster
  /** Deliver webhooks to private/loopback addresses and accept http:// webhook URLs (development only). */
  allowPrivateWebhooks?: boolean
  /** Outbound fetch for webhooks; default the SSRF-safe fetch. */
  fetch?: WebhookFetch
  /** Run the webhook delivery worker on this node (default true). */
  webhookWorker?: boolean
  /** Overrides for tests: WS keepalive, WS rate limit, webhook polling and retries. */
  tuning?: {
    pingIntervalMs?: number
    wsRateLimit?: {limit: number; windowMs: number}
    sendRateLimit?: {limit: number; windowMs: number}
    webhookPollIntervalMs?: number
    webhookMaxAttempts?: number
    remoteAckTimeoutMs?: number
    random?: () => number
  }
}

export interface MessagingPart extends RegistryPart {
  /** The transport-free service (tests, other parts). */
  service: MessagingService
  /** Runs one webhook delivery round now (tests). */
  deliverWebhooksNow(): Promise<number>
  /** Resolves once the background webhook worker has no round in flight (tests). */
  webhooksIdle(): Promise<void>
}

/**
 * Builds the messaging part and registers the webhook hook on the context
 * (`ctx.webhooks`), so the core's `PATCH me` can set and remove webhooks.
 */
export function createMessagingPart(ctx: RegistryContext, options: MessagingPartOptions = {}): MessagingPart {
  const store = options.store ?? createMemoryMessagingStore()
  const tuning = options.tuning ?? {}
  // The worker needs the service for receipts and the service the worker for kicks: late-bound.
  let service: MessagingService
  const worker = createWebhookWorker({
    store,
    clock: ctx.clock,
    logger: ctx.logger,
    fetch: options.fetch ?? ((url, init) => safeFetch(url, init)),
    allowPrivate: options.allowPrivateWebhooks,
    pollIntervalMs: tuning.webhookPollIntervalMs,
    maxAttempts: tuning.webhookMaxAttempts,
    random: tuning.random,
    metrics: ctx.metrics,
    // spec Events "Delivery receipt": a receiver's 2xx counts as the message being read.
    async onDelivered(deliveries) {
      const byReader = new Map<string, Delivery[]>()
      for (const delivery of deliveries) byReader.set(delivery.to, [...(byReader.get(delivery.to) ?? []), delivery])
      for (const [reader, read] of byReader) await service.sendReceipts(reader, read, 'webhook')
    },
  })
  const router = createLiveRouter({store, bus: ctx.bus, clock: ctx.clock, logger: ctx.logger, remoteAckTimeoutMs: tuning.remoteAckTimeoutMs})
  const runWorker = options.webhookWorker ?? true
  service = createMessagingService({
    store,
    clock: ctx.clock,
    logger: ctx.logger,
    agentExists: async (agentId) => (await ctx.store.getAgent(agentId)) !== null,
    // Wake this node's worker and, through the bus, every other node's.
    onQueued: () => {
      if (runWorker) worker.kick()
      ctx.bus.publish(SUBJECT_WEBHOOK_KICK, new Uint8Array())
    },
    livePush: (agentId, frame) => router.push(agentId, frame),
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    metrics: ctx.metrics,
  })
  const sockets = createAgentSocketServer({
    service,
    router,
    authenticate: (token) => ctx.authenticate(token),
    logger: ctx.logger,
    pingIntervalMs: tuning.pingIntervalMs,
    rateLimit: tuning.wsRateLimit,
    metrics: ctx.metrics,
  })
  ctx.webhooks = {set: (agentId, url) => service.setWebhook(agentId, url)}
  let unsubscribeKick: (() => void) | undefined

  return {
    name: 'messaging',
    service,
    middleware: createMessagingRoutes({service, authenticate: (bearer) => ctx.authenticate(bearer), clock: ctx.clock, publicUrl: ctx.publicUrl, channels: options.channels, sendRateLimit: tuning.sendRateLimit}),
    upgrade: (request, socket, head) => sockets.upgrade(request, socket, head),
    async start() {
      await router.start()
      sockets.start()
      if (runWorker) {
        unsubscribeKick = ctx.bus.subscribe(SUBJECT_WEBHOOK_KICK, () => worker.kick())
        worker.start()
      }
    },
    async close() {
      unsubscribeKick?.()
      await sockets.close()
      await worker.close()
      await router.close()
    },
    nodeView: () => ({peers: router.peers.peers(), checked_at: router.peers.checkedAt()}),
    heartbeat: () => router.heartbeat(),
    deliverWebhooksNow: () => worker.runOnce(),
    webhooksIdle: () => worker.idle(),
  }
}

export {createMessagingService, type MessagingService, type ReceiptPayload} from './service.js'
export type {ChannelBroadcaster} from './routes.js'
export {signWebhook, verifyWebhookSignature} from './webhook/signature.js'
export * from './constants.js'
export * from './store/store.js'
