/**
 * The registry's HTTP routes: unified `/v1/...`, the legacy hub without the
 * prefix (same handlers; the Deprecation header is set in guards.ts), the
 * network view and the site routes. Handlers parse, call the operations and
 * write; every failure is a MeshError the host turns into the JSON error body.
 */
import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import {readJsonObject} from '../../http/json-body.js'
import {nameRoute} from '../../http/metrics.js'
import {requestAudience} from '../../identity/audience.js'
import {MESH_SIG_HEADER} from '../../identity/constants.js'
import {invalid, MeshError, unauthorized} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import {ADMIN_KEY_HEADER, AGENT_ID_PATTERN, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, NETWORK_DEFAULT_LIMIT, NETWORK_MAX_LIMIT} from '../constants.js'
import type {CoreRegistryContext} from '../context.js'
import type {NotReady} from '../health.js'
import type {RegistryOperations} from '../service.js'
import {shippedStandardSite, type StandardSite} from '../../standard/site.js'
import {addStandardSiteRoutes} from './standard-site.js'

/** Opaque keyset cursor: base64url of `a:<last agent_id>`. */
export const encodeCursor = (after: string) => Buffer.from(`a:${after}`, 'utf8').toString('base64url')

export function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const after = text.startsWith('a:') ? text.slice(2) : ''
  if (!AGENT_ID_PATTERN.test(after)) throw invalid('invalid_cursor', 'cursor is not one this registry returned', {field: 'cursor'})
  return after
}

function parseListQuery(ctx: Context, defaultLimit: number, maxLimit: number) {
  const query = assertValid<{online?: string; cursor?: string; limit?: string}>('registry-list-query', {...ctx.query}, 'invalid_query')
  const limit = query.limit === undefined ? defaultLimit : Number(query.limit)
  if (limit < 1) throw invalid('invalid_query', 'limit must be at least 1', {field: 'limit'})
  return {
    online: query.online === undefined ? undefined : query.online === 'true' || query.online === '1',
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    // Above the maximum is served as the maximum, not refused.
    limit: Math.min(limit, maxLimit),
  }
}

const openCors = (ctx: Context) => ctx.set('Access-Control-Allow-Origin', '*')

/** The core's routes: the router, and a lookup of its fixed-path routes for the fast path. */
export interface RegistryRoutes {
  router: Router
  /**
   * Serves the fixed-path routes (token, me, state, register) by an exact
   * `METHOD path` lookup and calls next() for everything else. It runs
   * before the parts and the router, so the heartbeat's two calls skip the
   * parts' routers and the router's pattern scan; the router keeps the same
   * routes for 405/OPTIONS answers.
   */
  fixed: Middleware
}

/**
 * `health` adds this node's view to `/health`, `ready` decides `/health/ready`
 * (../health.ts); `site` is the standard's site (standard-site.ts).
 */
export function createRegistryRoutes(
  ctx: CoreRegistryContext,
  ops: RegistryOperations,
  health: () => Record<string, unknown> = () => ({}),
  site?: StandardSite,
  ready: () => Promise<NotReady> = async () => null,
): RegistryRoutes {
  const router = new Router()
  // path → method → handler: two lookups, no string built per request.
  const exact = new Map<string, Map<string, (koa: Context) => Promise<void>>>()
  const bodyLimit = ctx.limits.bodyBytes

  /** Bearer JWT → the caller's record (401 otherwise). */
  const agentOf = (koa: Context) => ctx.authenticateAgent(koa.get('authorization') || undefined)

  /** A wrong admin key is refused rather than silently ignored. */
  const adminOf = (koa: Context) => {
    const given = koa.get(ADMIN_KEY_HEADER)
    if (!given) return false
    if (!ctx.isAdminKey(given)) throw unauthorized('invalid_admin_key', `${ADMIN_KEY_HEADER} is not this registry's admin key`)
    return true
  }

  const register = async (koa: Context) => {
    ctx.registrationLimiter.hit(`ip:${koa.ip}`)
    const body = await readJsonObject(koa, bodyLimit)
    const header = koa.get(MESH_SIG_HEADER)
    const signer = header ? await ctx.verifySignedRequest({method: koa.method, path: koa.originalUrl, body: body.raw, header, requestAudience: requestAudience(koa.protocol, koa.host)}) : null
    const result = await ops.register(body.value, signer)
    koa.status = result.status
    koa.set('Cache-Control', 'no-store')
    koa.body = result.body
  }
  const token = async (koa: Context) => {
    const body = await readJsonObject(koa, bodyLimit)
    koa.set('Cache-Control', 'no-store')
    koa.body = await ops.token(body.value)
  }
  const patchMe = async (koa: Context) => {
    const agent = await agentOf(koa)
    const isAdmin = adminOf(koa)
    const body = await readJsonObject(koa, bodyLimit)
    koa.body = await ops.patchMe(agent, body.value, isAdmin)
  }
  const state = async (koa: Context) => {
    const agent = await agentOf(koa)
    const body = await readJsonObject(koa, bodyLimit)
    koa.body = await ops.mergeState(agent, body.value)
  }
  const record = async (koa: Context) => {
    openCors(koa)
    koa.body = await ops.record(koa.params.id)
  }
  const identity = async (koa: Context) => {
    openCors(koa)
    koa.body = await ops.identity(koa.params.id)
  }

  const fixedRoute = (method: 'POST' | 'PATCH', paths: string[], handler: (koa: Context) => Promise<void>) => {
    for (const path of paths) {
      router.register(path, [method], handler)
      if (!exact.has(path)) exact.set(path, new Map())
      exact.get(path)!.set(method, handler)
    }
  }
  fixedRoute('POST', ['/v1/agents/register', '/agents/register'], register)
  fixedRoute('POST', ['/v1/agents/token', '/agents/token'], token)
  fixedRoute('PATCH', ['/v1/agents/me', '/agents/me'], patchMe)
  fixedRoute('POST', ['/v1/agents/me/state', '/agents/me/state'], state)

  router.get('/v1/agents', async (koa) => {
    openCors(koa)
    const page = await ops.list(parseListQuery(koa, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT), 'record')
    koa.body = {agents: page.agents, next_cursor: page.nextAfter ? encodeCursor(page.nextAfter) : null}
  })
  router.get('/platform/network', async (koa) => {
    openCors(koa)
    const page = await ops.list(parseListQuery(koa, NETWORK_DEFAULT_LIMIT, NETWORK_MAX_LIMIT), 'network')
    const online = page.agents.filter((agent) => agent.online).length
    koa.body = {agents: page.agents, count: page.agents.length, online, next_cursor: page.nextAfter ? encodeCursor(page.nextAfter) : null}
  })
  router.get('/v1/agents/:id', record)
  router.get('/agents/:id', record)
  router.get('/v1/agents/:id/identity', identity)
  router.get('/agents/:id/identity', identity)

  // spec Site: content negotiation picks HTML for browsers, the DiscoveryCard for JSON clients.
  router.get('/agent/:id', async (koa) => {
    koa.vary('Accept')
    openCors(koa)
    // Browsers get the HTML page from the site part (src/registry/site/agent/), which runs first.
    const {card} = await ops.card(koa.params.id)
    koa.body = card
  })
  router.get('/agent/:id/.well-known/agent.json', async (koa) => {
    openCors(koa)
    const {card, fetchedAt} = await ops.wellKnown(koa.params.id)
    koa.body = card
    koa.set('Cache-Control', 'public, max-age=60')
    // The copy is as old as the prober's last good fetch (it is kept when later fetches fail).
    const fetchedMs = Date.parse(fetchedAt)
    if (Number.isFinite(fetchedMs)) koa.set('Last-Modified', new Date(fetchedMs).toUTCString())
  })

  // spec (project standard) items 4–5: the standard's site; the shipped texts unless --site-dir replaced them.
  addStandardSiteRoutes(router, site ?? shippedStandardSite(ctx.publicUrl))

  router.get('/health', (koa) => {
    koa.body = {ok: true, service: 'registry', ...health()}
  })
  // docs/operating.md: liveness says only that the process answers; readiness that it can serve.
  router.get('/health/live', (koa) => {
    koa.set('Cache-Control', 'no-store')
    koa.body = {ok: true}
  })
  router.get('/health/ready', async (koa) => {
    koa.set('Cache-Control', 'no-store')
    const problem = await ready()
    if (problem) throw new MeshError('unavailable', problem.code, problem.message)
    koa.body = {ok: true}
  })
  const fixed: Middleware = (koa, next) => {
    const handler = exact.get(koa.path)?.get(koa.method)
    if (!handler) return next()
    // A fixed path is its own pattern.
    nameRoute(koa, koa.path)
    return handler(koa)
  }
  return {router, fixed}
}
