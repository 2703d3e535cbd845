import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import {CLUSTER_TOKEN_HEADER} from '../../cluster/constants.js'
import {sendError} from '../../http/error-middleware.js'
import {readJsonObject} from '../../http/json-body.js'
import {createRateLimiter} from '../../http/rate-limit.js'
import {invalid, isMeshError, notFound} from '../../lib/errors.js'
import {LEGACY_DEPRECATION} from '../constants.js'
import {MAX_MESSAGE_BODY_BYTES, SEND_RATE_LIMIT, SEND_RATE_WINDOW_MS, WS_PATH} from './constants.js'
import {checkMessage, type MessagingService} from './service.js'

/** Broadcast on a cluster's wall, provided by the cluster relay. DECISIONS: a legacy channel id is a cluster id. */
export interface ChannelBroadcaster {
  /**
   * Rejects with a not_found MeshError (or resolves null) when the cluster is
   * unknown, and alike when it is private and `clusterToken` is not its
   * `ck_` or `ak_` token (DECISIONS: Private clusters).
   */
  broadcast(clusterId: string, fromAgentId: string, payload: unknown, clusterToken?: string): Promise<{delivered: number} | null>
}

/**
 * The cluster's own token on the channel route: header `x-cluster-token` or
 * query `token` (Authorization already carries the agent's JWT). A repeated
 * `token` is refused rather than one picked, as on the relay's routes.
 */
function clusterTokenOf(ctx: Context): string | undefined {
  const header = ctx.get(CLUSTER_TOKEN_HEADER).trim()
  if (header) return header
  const query = ctx.query.token
  if (Array.isArray(query)) throw invalid('invalid_query', 'token is given more than once', {field: 'token'})
  return query || undefined
}

export interface MessagingRoutesOptions {
  service: MessagingService
  authenticate(bearer: string | undefined): Promise<string>
  clock: () => number
  /** DECISIONS "Public address": base of the successor links. */
  publicUrl: string
  channels?: ChannelBroadcaster
  sendRateLimit?: {limit: number; windowMs: number}
}

/**
 * HTTP routes of the message bus. The legacy hub paths (spec "legacy routes
 * table") answer with a `Deprecation` header and a `Link` to their `/v1`
 * twin (DECISIONS "Legacy routes"); the `/v1` paths are the same handlers.
 */
export function createMessagingRoutes(options: MessagingRoutesOptions): Middleware {
  const {service} = options
  const router = new Router()
  const sendLimiter = createRateLimiter({
    limit: options.sendRateLimit?.limit ?? SEND_RATE_LIMIT,
    windowMs: options.sendRateLimit?.windowMs ?? SEND_RATE_WINDOW_MS,
    now: options.clock,
  })
  const caller = (ctx: Context) => options.authenticate(ctx.get('authorization') || undefined)

  /** Registers a handler on the legacy path and its /v1 twin. */
  const both = (method: 'get' | 'post', path: string, handler: (ctx: Context) => Promise<void>) => {
    router[method](path, async (ctx) => {
      ctx.set('Deprecation', LEGACY_DEPRECATION)
      ctx.set('Link', `<${options.publicUrl}/v1${ctx.path}>; rel="successor-version"`)
      await handler(ctx)
    })
    router[method](`/v1${path}`, handler)
  }

  both('post', '/agents/messages', async (ctx) => {
    const from = await caller(ctx)
    const {value} = await readJsonObject<{to?: unknown; payload?: unknown}>(ctx, MAX_MESSAGE_BODY_BYTES)
    sendLimiter.hit(from)
    ctx.body = await service.send(from, value.to, value.payload)
  })

  both('get', '/agents/messages', async (ctx) => {
    const agentId = await caller(ctx)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await service.read(agentId, ctx.query.limit)
  })

  both('post', '/agents/messages/ack', async (ctx) => {
    const agentId = await caller(ctx)
    const {value} = await readJsonObject<{ids?: unknown}>(ctx)
    ctx.body = await service.ack(agentId, value.ids)
  })

  both('post', '/agents/channels/:channelId/send', async (ctx) => {
    const from = await caller(ctx)
    const {value} = await readJsonObject<{payload?: unknown}>(ctx, MAX_MESSAGE_BODY_BYTES)
    checkMessage(from, value.payload)
    sendLimiter.hit(from)
    const channelId = ctx.params.channelId as string
    const clusterToken = clusterTokenOf(ctx)
    let result: {delivered: number} | null = null
    try {
      result = options.channels ? await options.channels.broadcast(channelId, from, value.payload, clusterToken) : null
    } catch (error) {
      // The relay's own "no such cluster" (unknown, or private without its token) becomes this route's code.
      if (!(isMeshError(error) && error.kind === 'not_found')) throw error
    }
    if (!result) throw notFound('unknown_channel', `No channel ${channelId}: a channel id is a cluster id`)
    ctx.body = {ok: true, delivered: result.delivered}
  })

  // A plain request on the socket's path would otherwise read `ws` as an agent id (400 invalid_agent_id).
  router.get(WS_PATH, (ctx) => {
    ctx.set('Upgrade', 'websocket')
    sendError(ctx, 426, 'upgrade_required', `${WS_PATH} is a WebSocket: connect with a WebSocket client (?token=<JWT>)`)
  })

  // Webhook status and dead letters (mesh's addition; set/remove is PATCH me with `webhook`).
  router.get('/v1/agents/me/webhook', async (ctx) => {
    const agentId = await caller(ctx)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await service.webhookStatus(agentId)
  })
  router.post('/v1/agents/me/webhook/retry', async (ctx) => {
    const agentId = await caller(ctx)
    ctx.body = await service.retryDeadLetters(agentId)
  })

  return router.routes() as Middleware
}
