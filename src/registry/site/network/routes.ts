/**
 * The network's HTTP routes: `GET /network` (the page), `GET
 * /network/graph.json` (the laid-out graph) and `GET /network/events`
 * (server-sent events, `event: agent`). Parsing and writing only; the work
 * is in network.ts and model.ts.
 */
import {gzipSync} from 'node:zlib'
import type {Context, Next} from 'koa'
import type {EventStreamHub} from '../../../http/sse.js'
import {sendError} from '../../../http/error-middleware.js'
import {decodeCursor, encodeCursor} from '../../http/routes.js'
import type {SiteAssets} from '../assets.js'
import {SITE_HEADERS} from '../constants.js'
import {html} from '../html.js'
import {renderPage} from '../layout.js'
import {sendPage} from '../http/pages.js'
import type {NetworkModel} from './model.js'
import type {NetworkPages} from './network.js'

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)

const truthy = (value: string | undefined) => value === '1' || value === 'true' || value === 'on'

/**
 * graph.json is large (about 115 bytes an agent) and compresses about ten
 * to one; the host compresses nothing, so this route keeps the gzip of the
 * model's current text (one compression per change, at the fastest level).
 */
function gzipCache() {
  let source: string | undefined
  let body: Buffer | undefined
  return (text: string) => {
    if (text !== source || !body) {
      body = gzipSync(text, {level: 1})
      source = text
    }
    return body
  }
}

export function networkMiddleware(options: {assets: SiteAssets; model: NetworkModel; pages: NetworkPages; hub: EventStreamHub}) {
  const {assets, model, pages, hub} = options
  const gzipped = gzipCache()
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    switch (ctx.path) {
      case '/network':
      case '/network/': {
        const cursor = first(ctx.query.cursor)
        let after: string | undefined
        try {
          after = cursor === undefined || cursor === '' ? undefined : decodeCursor(cursor)
        } catch {
          const main = html`<h1>Network</h1><p class="notice" role="alert">That page link is not one this registry made.</p><p><a href="/network">Back to the first page</a></p>`
          return sendPage(ctx, renderPage(assets, {title: 'Network', section: 'network', main}), 400)
        }
        const page = await pages.page({q: first(ctx.query.q), operationalOnly: truthy(first(ctx.query.operational_only)), after}, encodeCursor)
        return sendPage(ctx, page)
      }
      case '/network/graph.json': {
        ctx.set(SITE_HEADERS)
        ctx.set('Cache-Control', 'no-cache')
        ctx.vary('Accept-Encoding')
        ctx.type = 'application/json; charset=utf-8'
        const text = model.graphJson()
        if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
          ctx.set('Content-Encoding', 'gzip')
          ctx.body = gzipped(text)
        } else ctx.body = text
        return
      }
      case '/network/events':
        if (ctx.method === 'HEAD') return sendError(ctx, 405, 'method_not_allowed', 'Open the event stream with GET')
        hub.open(ctx)
        return
      default:
        return next()
    }
  }
}
