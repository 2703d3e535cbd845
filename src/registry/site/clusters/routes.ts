/**
 * The Koa face of the clusters area: `GET /clusters`, `GET /clusters/events`
 * and `GET /clusters/<slug-or-id>`. Rendering lives in the page files.
 */
import type {Context, Middleware, Next} from 'koa'
import type {PublicClusterView} from '../../../cluster/public-view.js'
import type {EventStreamHub} from '../../../http/sse.js'
import type {SiteAssets} from '../assets.js'
import {html} from '../html.js'
import {renderPage} from '../layout.js'
import {sendNotFoundPage, sendPage} from '../http/pages.js'
import {renderCatalogPage, renderNoRelayPage} from './catalog-page.js'
import {renderClusterPage} from './cluster-page.js'
import {BOARDS_IN_FULL, CATALOG_PAGE_SIZE, POSTS_ON_PAGE, POSTS_PER_BOARD} from './constants.js'
import type {CatalogFeed} from './live.js'
import type {WorldMap} from './map.js'

export interface ClusterRoutesDeps {
  assets: SiteAssets
  view?: PublicClusterView
  hub: EventStreamHub
  feed?: CatalogFeed
  map: WorldMap
  landUrl: string
  clock: () => number
}

const PREFIX = '/clusters'

/** `?offset=`: absent → 0; otherwise a whole number, else null. */
function parseOffset(value: unknown): number | null {
  if (value === undefined || value === '') return 0
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return null
  return Number(value)
}

function sendBadOffset(ctx: Context, assets: SiteAssets) {
  const main = html`<h1>Not a page of the catalog</h1><p>The <code>offset</code> must be a whole number of clusters to skip, such as <code>50</code>.</p><p><a href="/clusters">The first page of the catalog</a></p>`
  sendPage(ctx, renderPage(assets, {title: 'Not a page of the catalog', section: 'clusters', main}), 400)
}

export function clusterRoutes(deps: ClusterRoutesDeps): Middleware {
  const {assets, view} = deps
  const notFound = (ctx: Context) =>
    sendNotFoundPage(ctx, assets, {title: 'No such cluster', message: 'There is no public cluster by that name or id.', section: 'clusters', back: {href: '/clusters', label: 'Back to public clusters'}})

  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    if (ctx.path !== PREFIX && !ctx.path.startsWith(`${PREFIX}/`)) return next()
    const rest = ctx.path.slice(PREFIX.length + 1)

    if (ctx.path === PREFIX || rest === '') {
      if (!view) return sendPage(ctx, renderNoRelayPage(assets))
      const offset = parseOffset(ctx.query.offset)
      if (offset === null) return sendBadOffset(ctx, assets)
      const {clusters, count} = await view.catalog({limit: CATALOG_PAGE_SIZE, offset})
      return sendPage(ctx, renderCatalogPage({assets, map: deps.map, landUrl: deps.landUrl, clusters, count, offset}))
    }

    if (rest === 'events') {
      if (ctx.method !== 'GET') return next()
      if (!view || !deps.feed) return sendPage(ctx, renderNoRelayPage(assets), 404)
      const feed = deps.feed
      deps.hub.open(ctx, (stream) => feed.opened(stream))
      return
    }

    if (rest.includes('/')) return next()
    if (!view) return sendPage(ctx, renderNoRelayPage(assets), 404)
    let ref: string
    try {
      ref = decodeURIComponent(rest)
    } catch {
      return notFound(ctx)
    }
    const page = ref ? await view.cluster(ref, {postsPerBoard: POSTS_PER_BOARD, maxPosts: POSTS_ON_PAGE, boardsWithPosts: BOARDS_IN_FULL}) : null
    if (!page) return notFound(ctx)
    return sendPage(ctx, renderClusterPage({assets, map: deps.map, landUrl: deps.landUrl, page, nowMs: deps.clock()}))
  }
}
