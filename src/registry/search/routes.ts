/**
 * HTTP adapter of search: `POST /v1/search` (spec "Site and search"). The
 * only search file that sees Koa.
 */
import type {Context, Middleware, Next} from 'koa'
import {sendError} from '../../http/error-middleware.js'
import {readJsonObject} from '../../http/json-body.js'
import {nameRoute} from '../../http/metrics.js'
import {SEARCH_BODY_LIMIT_BYTES} from './constants.js'
import {parseSearchRequest} from './request.js'
import type {SearchService} from './search-service.js'

export const SEARCH_PATH = '/v1/search'

/** The search route; calls next() for every other path. */
export function searchMiddleware(service: SearchService): Middleware {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== SEARCH_PATH) return next()
    nameRoute(ctx, SEARCH_PATH)
    // Search is public and read-only: a browser page may call it from anywhere.
    ctx.set('Access-Control-Allow-Origin', '*')
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS')
      ctx.set('Access-Control-Allow-Headers', 'content-type')
      ctx.status = 204
      return
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST, OPTIONS')
      sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed on ${SEARCH_PATH}; POST a JSON body {"prompt": "..."}`)
      return
    }
    const {value} = await readJsonObject(ctx, SEARCH_BODY_LIMIT_BYTES)
    ctx.body = await service.search(parseSearchRequest(value))
  }
}
