/**
 * The daemon's HTTP face: the perimeter (loopback Host/Origin, project,
 * portal token) in front of every route table, mesh's JSON errors, and the
 * adapter from route tables to @koa/router. The only file of the daemon that
 * sees Koa besides the /events socket.
 */
import Router from '@koa/router'
import type {Context, Middleware} from 'koa'
import compose from 'koa-compose'
import {readJsonObject} from '../../http/json-body.js'
import {STATUS_OF_KIND} from '../../http/error-middleware.js'
import {invalid, isMeshError} from '../../lib/errors.js'
import {CSRF_HEADER, MAX_BODY_BYTES} from '../constants.js'
import type {DaemonContext} from '../context.js'
import {isAnswer, type Route, type RouteRequest} from '../route-table.js'
import {assertLoopbackRequest, assertOperator, assertPortalToken, assertProject, bearerOf} from './guards.js'

function singleValued(ctx: Context): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw invalid('invalid_query', `${name} is given more than once`, {field: name})
    if (value !== undefined) query[name] = value
  }
  return query
}

function requestOf(ctx: Context): RouteRequest {
  let body: Promise<Record<string, unknown>> | undefined
  return {
    params: {...ctx.params},
    query: singleValued(ctx),
    headers: ctx.headers,
    body: () => (body ??= readJsonObject(ctx, MAX_BODY_BYTES).then((read) => read.value as Record<string, unknown>)),
  }
}

/** A read of the debug stream itself (GET /debug/tail). */
const isStreamRead = (method: string, path: string) => method === 'GET' && path === '/debug/tail'

/** The middleware that serves every route table behind the perimeter. */
export function createDaemonMiddleware(context: DaemonContext, tables: Route[][]): Middleware {
  const router = new Router()
  /** Paths of member-token routes (ask, poll): they check X-Mesh-Project themselves, after the token (see below). */
  const memberPaths = new Set(tables.flat().flatMap((route) => (route.auth === 'member' ? [route.path] : [])))
  const isMemberRoute = (ctx: Context) => router.match(ctx.path, ctx.method).pathAndMethod.some((layer) => typeof layer.path === 'string' && memberPaths.has(layer.path))
  for (const route of tables.flat()) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'
    router[method](route.path, async (ctx: Context) => {
      if (route.auth === 'portal') assertOperator(ctx.req, context, ctx.get(CSRF_HEADER) || undefined)
      if (route.auth === 'bearer') assertPortalToken(bearerOf(ctx.req), context.portalToken)
      const result = await route.handle(requestOf(ctx))
      if (isAnswer(result)) {
        ctx.status = result.status ?? 200
        for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value)
        // No body: Koa would turn the status into 204; a bare 404 gets the daemon's usual JSON error further up.
        if (result.body !== undefined) ctx.body = result.body
      } else {
        ctx.status = 200
        ctx.body = result
      }
      if (typeof ctx.body === 'object' && ctx.body !== null && !Buffer.isBuffer(ctx.body)) ctx.set('Cache-Control', 'no-store')
    })
  }
  const perimeter: Middleware = async (ctx, next) => {
    assertLoopbackRequest(ctx.req)
    // spec Errors (ask): a caller without a token is 401 before anything is said about the project; the
    // ask and poll routes check the project after the token (chat/ask.ts), without naming this one.
    if (!isMemberRoute(ctx)) assertProject(ctx.req, context.projectId())
    await next()
  }
  const logged: Middleware = async (ctx, next) => {
    const started = context.clock()
    let status = 500
    try {
      await next()
      status = ctx.status
    } catch (error) {
      if (isMeshError(error)) status = STATUS_OF_KIND[error.kind]
      throw error
    } finally {
      // spec canonical tag `http`: one debug line per request; headers (the token) are never written. A
      // reader of the stream polling it (`mesh daemon logs --follow`, twice a second) is not written into
      // it: it would read its own polls back (issue 19). A refused poll is still said.
      if (!(isStreamRead(ctx.method, ctx.path) && status < 400)) {
        context.debug.log({lvl: status >= 500 ? 'error' : 'debug', tag: 'http', msg: `${ctx.method} ${ctx.path} ${status}`, data: {status, ms: context.clock() - started}})
      }
    }
  }
  return compose([logged, perimeter, router.routes(), router.allowedMethods({throw: false})]) as Middleware
}
