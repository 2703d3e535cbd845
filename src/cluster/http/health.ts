/**
 * `GET /health` of a relay served alone (`mesh serve relay`): liveness plus
 * this node's view of the deployment (docs/relay.md "Health"). When the
 * registry serves the relay, the registry's `/health` answers first and
 * carries the relay's view under `relay`.
 */
import type {Middleware} from 'koa'
import {sendError} from '../../http/error-middleware.js'
import {nameRoute} from '../../http/metrics.js'

export function relayHealthRoute(view: () => Record<string, unknown>): Middleware {
  return (ctx, next) => {
    if (ctx.path !== '/health') return next()
    nameRoute(ctx, '/health')
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD')
      return sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed on /health; use GET`)
    }
    ctx.body = {ok: true, service: 'relay', ...view()}
  }
}
