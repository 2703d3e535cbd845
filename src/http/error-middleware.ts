import type {Context, Next} from 'koa'
import {type ErrorKind, isMeshError} from '../lib/errors.js'
import type {Logger} from '../lib/log.js'

/** The HTTP reading of each error kind: one table for the whole HTTP transport. */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
}

/** Writes the one error body of mesh: `{"error": {"code", "message", "field"?}}`. */
export function sendError(ctx: Context, status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  ctx.status = status
  ctx.type = 'application/json'
  ctx.body = {error: {code, message, ...extra}}
}

/**
 * Answers a caught error: a MeshError becomes its JSON body (field and
 * details included, `Retry-After` from details.retry_after), an error thrown
 * by Koa itself (ctx.throw, body parsers) keeps its 4xx status with a generic
 * code, and anything else is logged as `what` and answered as a bare 500 so
 * no stack trace or internal message leaves the process.
 */
export function answerError(ctx: Context, error: unknown, logger: Logger, what = 'unhandled error') {
  if (isMeshError(error)) {
    const extra: Record<string, unknown> = {}
    if (error.field) extra.field = error.field
    if (error.details) Object.assign(extra, error.details)
    const retryAfter = error.details?.retry_after
    if (typeof retryAfter === 'number') ctx.set('Retry-After', String(Math.max(1, Math.ceil(retryAfter))))
    sendError(ctx, STATUS_OF_KIND[error.kind], error.code, error.message, extra)
    if (error.kind === 'internal') logger.error(error.message, {code: error.code})
    return
  }
  const status = (error as {status?: unknown} | null | undefined)?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    sendError(ctx, status, `http_${status}`, (error as Error).message || 'Bad request')
    return
  }
  logger.error(what, {path: pathOf(ctx) ?? '(unparsable)', method: ctx.method, error: String((error as Error)?.stack ?? error)})
  sendError(ctx, 500, 'internal', 'Internal server error')
}

/** The outermost middleware of every mesh Koa app: every error is answered by answerError. */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next()
    } catch (error) {
      answerError(ctx, error, logger)
    }
  }
}

/** The request path, or undefined when the target cannot be parsed (Koa's ctx.path throws then). */
function pathOf(ctx: Context): string | undefined {
  try {
    return ctx.path
  } catch {
    return undefined
  }
}

/**
 * Right inside errorMiddleware: a request target Node accepts but URL parsing
 * refuses (`GET http://[/v1/agents`) makes every later read of ctx.path throw;
 * it is answered here with a 400 like the upgrade path's, once.
 */
export function requestTargetGuard() {
  return async (ctx: Context, next: Next) => {
    if (pathOf(ctx) === undefined) {
      sendError(ctx, 400, 'bad_request', 'The request target is not a valid URL')
      return
    }
    await next()
  }
}

/**
 * Last in the chain: any route nothing answered is a JSON 404, never an HTML
 * page. A method the router does not know at all (PROPFIND, PURGE) comes back
 * from it as a bare 501; for the client that is the same mistake as a known
 * method on the wrong path, so it is the same JSON 405 (with the router's Allow).
 */
export function notFoundMiddleware() {
  return async (ctx: Context, next: Next) => {
    await next()
    if (ctx.body === undefined && (ctx.status === 404 || ctx.status === 405 || ctx.status === 501) && !ctx.headerSent) {
      if (ctx.status === 404) sendError(ctx, 404, 'not_found', `No route for ${ctx.method} ${ctx.path}`)
      else sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`)
    }
  }
}
