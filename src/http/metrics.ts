/**
 * Counting HTTP requests without knowing Prometheus: the sink a host hands
 * its middleware (prometheus.ts implements it), and the middleware that
 * names each request by the route pattern that served it. Labels are
 * patterns (`/v1/agents/:id`), never raw paths, so a scraper sees a bounded
 * set of series however many agent ids are asked for (docs/operating.md).
 */
import type {Context, Middleware} from 'koa'

/** What the host reports per answered request. */
export interface HttpMetrics {
  request(method: string, route: string, status: number, seconds: number): void
}

/** The label of a request no route matched (404s, probes of random paths). */
export const UNMATCHED_ROUTE = 'unmatched'

/** Methods kept as themselves; anything else is counted as `other` (a client may send any token as a method). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * Where a handler that is not a router route (an exact-path fast path)
 * names the pattern it served; @koa/router sets `ctx._matchedRoute` itself.
 */
export const ROUTE_STATE_KEY = 'meshRoute'

/** Names the pattern a handler outside @koa/router served (a fixed path, an area of pages); never a raw path with ids in it. */
export function nameRoute(ctx: Context, pattern: string): void {
  ctx.state[ROUTE_STATE_KEY] ??= pattern
}

/** The pattern that served this request, else UNMATCHED_ROUTE. */
export function routeOf(ctx: Context): string {
  const named = ctx.state[ROUTE_STATE_KEY]
  if (typeof named === 'string') return named
  // @koa/router: the most specific matched layer's path (a string pattern, or a RegExp we registered).
  const matched = (ctx as Context & {_matchedRoute?: unknown})._matchedRoute
  if (typeof matched === 'string' && matched !== '') return matched
  if (matched instanceof RegExp) return matched.source
  return UNMATCHED_ROUTE
}

/**
 * Outermost middleware of a host: times the request and reports it once the
 * answer is settled (errors included: it runs outside the error middleware,
 * which has set the status by then).
 */
export function httpMetricsMiddleware(metrics: HttpMetrics, now: () => bigint = process.hrtime.bigint): Middleware {
  return async (ctx, next) => {
    const start = now()
    try {
      await next()
    } finally {
      const seconds = Number(now() - start) / 1e9
      metrics.request(KNOWN_METHODS.has(ctx.method) ? ctx.method : 'other', routeOf(ctx), ctx.status, seconds)
    }
  }
}
