/**
 * The agent kit's one adapter to Koa: maps HTTP onto the transport-free
 * AgentCore (src/agent/kit/agent-core.ts). Routing is a switch on the path
 * and a Map lookup on the skill id: nothing is allocated per request beyond
 * what the call needs.
 *
 * CORS (spec Agent side + DECISIONS CORS for agents) is set first, on every
 * request the agent's host sees, so errors, 404s and the host's own answers
 * (errorMiddleware, notFoundMiddleware around the service) carry it too.
 */
import type {Context, Middleware, Next} from 'koa'
import {answerError, sendError} from '../../http/error-middleware.js'
import {readJsonBody} from '../../http/json-body.js'
import {MESH_SIG_HEADER} from '../../identity/constants.js'
import {MeshError} from '../../lib/errors.js'
import type {Logger} from '../../lib/log.js'
import type {AgentCore} from '../kit/agent-core.js'
import {
  A2A_CARD_PATH,
  BANNER_PATH,
  CARD_CACHE_CONTROL,
  CORS_HEADERS,
  CORS_MAX_AGE_SECONDS,
  HEALTH_PATH,
  PUBLIC_CARD_PATH,
  MCP_PATH,
  SKILL_PATH_PREFIX,
  TASKS_PATH_PREFIX,
  TASKS_SEND_PATH,
} from '../kit/constants.js'
import {a2aRoute, mcpRoute, taskRoute, tasksSendRoute} from './protocol-routes.js'
import {audienceOf, skillRequestOf} from './skill-request.js'
import {etagMatches, type ServedDocument} from '../kit/served-document.js'
import type {AgentReply} from '../kit/skill-call.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const CORS_ENTRIES = Object.entries(CORS_HEADERS)
const READ_METHODS = 'GET, HEAD, OPTIONS'
/** GET has no body: Mesh-Sig signs the empty string's hash. */
const NO_BODY = Buffer.alloc(0)

function send(ctx: Context, reply: AgentReply) {
  ctx.status = reply.status
  if (reply.headers) for (const name in reply.headers) ctx.res.setHeader(name, reply.headers[name])
  // Content-Type before the body, so Koa does not sniff the string.
  ctx.res.setHeader('Content-Type', JSON_TYPE)
  ctx.body = reply.body
}

function methodNotAllowed(ctx: Context, allow: string) {
  ctx.set('Allow', allow)
  sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`)
}

/** The PublicCard or the A2A card: strong ETag, five-minute cache, 304 on a matching If-None-Match. */
function sendDocument(ctx: Context, document: ServedDocument) {
  ctx.res.setHeader('ETag', document.etag)
  ctx.res.setHeader('Cache-Control', CARD_CACHE_CONTROL)
  if (etagMatches(ctx.get('if-none-match'), document.etag)) {
    ctx.status = 304
    return
  }
  ctx.status = 200
  ctx.res.setHeader('Content-Type', JSON_TYPE)
  ctx.body = document.body
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD'


/** Koa middleware serving the agent contract; paths it does not own go to next() (the host answers a JSON 404). */
export function agentMiddleware(core: AgentCore, logger: Logger): Middleware {
  const audience = (ctx: Context) => audienceOf(core, ctx)

  async function skillRoute(ctx: Context, id: string) {
    if (id === 'whoami') {
      if (!isRead(ctx.method)) return methodNotAllowed(ctx, READ_METHODS)
      return send(ctx, await core.whoami({method: ctx.method, target: ctx.originalUrl, meshSig: ctx.get(MESH_SIG_HEADER) || undefined, raw: NO_BODY, requestAudience: audience(ctx)}))
    }
    if (id === 'topup' && core.topupEnabled) {
      if (ctx.method !== 'POST') return methodNotAllowed(ctx, 'POST, OPTIONS')
      const meshSig = ctx.get(MESH_SIG_HEADER) || undefined
      if (!meshSig) return send(ctx, await core.topup({method: 'POST', target: ctx.originalUrl, meshSig, raw: NO_BODY, requestAudience: null}))
      const body = await readJsonBody(ctx, core.bodyLimit)
      return send(ctx, await core.topup({method: 'POST', target: ctx.originalUrl, meshSig, raw: body.raw, value: body.value, requestAudience: audience(ctx)}))
    }
    const skill = core.skills.get(id)
    if (!skill) throw new MeshError('not_found', 'unknown_skill', `This agent has no skill "${id.slice(0, 64)}" (see ${PUBLIC_CARD_PATH})`)
    if (ctx.method !== 'POST') return methodNotAllowed(ctx, 'POST, OPTIONS')
    const body = await readJsonBody(ctx, core.bodyLimit)
    const reply = await core.callSkill(skill, {...skillRequestOf(core, ctx, body.raw), value: body.value})
    send(ctx, reply)
  }

  async function route(ctx: Context, path: string): Promise<boolean> {
    if (path.startsWith(SKILL_PATH_PREFIX)) {
      await skillRoute(ctx, path.slice(SKILL_PATH_PREFIX.length))
      return true
    }
    let document: ServedDocument | undefined
    switch (path) {
      case PUBLIC_CARD_PATH:
        document = core.publicCardDocument
        break
      case A2A_CARD_PATH:
        document = core.a2aCardDocument
        break
      case HEALTH_PATH:
        if (!isRead(ctx.method)) methodNotAllowed(ctx, READ_METHODS)
        else {
          ctx.set('Cache-Control', 'no-store')
          send(ctx, await core.health())
        }
        return true
      // A2A_RPC_PATH is BANNER_PATH: GET reads the banner, POST is A2A JSON-RPC (issue 24).
      case BANNER_PATH:
        if (ctx.method === 'POST') await a2aRoute(ctx, core)
        else if (!isRead(ctx.method)) methodNotAllowed(ctx, 'GET, HEAD, POST, OPTIONS')
        else send(ctx, {status: 200, body: core.banner})
        return true
      case MCP_PATH:
        if (ctx.method !== 'POST') methodNotAllowed(ctx, 'POST, OPTIONS')
        else await mcpRoute(ctx, core)
        return true
      case TASKS_SEND_PATH:
        if (ctx.method !== 'POST') methodNotAllowed(ctx, 'POST, OPTIONS')
        else await tasksSendRoute(ctx, core)
        return true
      default:
        if (!path.startsWith(TASKS_PATH_PREFIX)) return false
        if (!isRead(ctx.method)) methodNotAllowed(ctx, READ_METHODS)
        else await taskRoute(ctx, core, path.slice(TASKS_PATH_PREFIX.length))
        return true
    }
    if (!isRead(ctx.method)) methodNotAllowed(ctx, READ_METHODS)
    else sendDocument(ctx, document)
    return true
  }

  return async function agentRoutes(ctx: Context, next: Next) {
    const response = ctx.res
    for (const [name, value] of CORS_ENTRIES) response.setHeader(name, value)
    // spec Agent side: OPTIONS on any path → 204 with the CORS headers (the preflight of every route).
    if (ctx.method === 'OPTIONS') {
      response.setHeader('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS))
      ctx.status = 204
      return
    }
    let handled: boolean
    try {
      handled = await route(ctx, ctx.path)
    } catch (error) {
      // Answered here rather than by the host's errorMiddleware: the agent's own logger hears of it, and the answer does not depend on which app mounts the agent.
      answerError(ctx, error, logger, 'agent route failed')
      return
    }
    if (!handled) await next()
  }
}
