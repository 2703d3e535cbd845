/**
 * The registry's web pages as a RegistryPart: `/agent/<id>` for browsers,
 * `/network`, `/clusters` and their live event streams, and the static files
 * under `/site/`. Pages are rendered on the server and readable without
 * JavaScript; small scripts add live updates and the graph and map.
 * docs/site.md.
 */
import {createEventStreamHub} from '../../http/sse.js'
import type {RegistryContext, RegistryPart} from '../types.js'
import {createAgentPages} from './agent/area.js'
import {createSiteAssets} from './assets.js'
import {createClusterPages} from './clusters/area.js'
import {MAX_EVENT_STREAMS, STREAM_KEEPALIVE_MS, STREAM_RETRY_MS} from './constants.js'
import {siteChain} from './http/chain.js'
import {createLiveStream} from './live/area.js'
import {createNetworkPages} from './network/area.js'
import {createStandardPages} from './standard/area.js'
import {shippedStandardSite} from '../../standard/site.js'
import type {SiteDeps, SiteOptions} from './types.js'

export const DEFAULT_CATALOG_POLL_MS = 2000

export function createSitePart(context: RegistryContext, options: SiteOptions = {}): RegistryPart {
  const deps: SiteDeps = {
    context,
    assets: options.assets ?? createSiteAssets(),
    search: options.search,
    clusters: options.clusters,
    catalogPollMs: options.catalogPollMs ?? DEFAULT_CATALOG_POLL_MS,
    standard: options.standard ?? shippedStandardSite(context.publicUrl),
    streams: (topic) => createEventStreamHub({max: options.maxStreams ?? MAX_EVENT_STREAMS, keepaliveMs: STREAM_KEEPALIVE_MS, retryMs: STREAM_RETRY_MS, topic}),
  }
  const pages = [createAgentPages(deps), createNetworkPages(deps), createClusterPages(deps), createStandardPages(deps)]
  const areas = [...pages, createLiveStream(deps, pages)]
  return {
    name: 'site',
    middleware: siteChain(deps.assets, areas, context.logger),
    async start() {
      for (const area of areas) await area.start?.()
    },
    async close() {
      for (const area of [...areas].reverse()) await area.close?.()
    },
  }
}
