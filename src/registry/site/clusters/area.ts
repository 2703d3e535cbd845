/**
 * The clusters area: `/clusters` (the public catalog and its map), one page
 * per public cluster, and `/clusters/events` (the catalog's live changes).
 * The world map's land is drawn once here and served as `world.svg`.
 */
import type {SiteArea, SiteDeps} from '../types.js'
import {createCatalogFeed} from './live.js'
import {createWorldMap} from './map.js'
import {clusterRoutes} from './routes.js'

export function createClusterPages(deps: SiteDeps): SiteArea {
  const map = createWorldMap()
  const landUrl = deps.assets.add('world.svg', map.svg)
  const hub = deps.streams('clusters')
  const view = deps.clusters
  const feed = view ? createCatalogFeed({view, hub, pollMs: deps.catalogPollMs, logger: deps.context.logger, project: map.project}) : undefined
  return {
    name: 'clusters',
    middleware: clusterRoutes({assets: deps.assets, view, hub, feed, map, landUrl, clock: deps.context.clock}),
    live: feed ? {hub, hello: (stream) => feed.opened(stream)} : undefined,
    close() {
      feed?.close()
      hub.closeAll()
    },
  }
}
