/**
 * The network area: `/network`, its graph and its live event stream. One
 * in-memory model per node, fed by the registry's events (over the bus, so
 * from every node), behind all three; every change goes out as
 * `event: agent` to this node's open streams.
 */
import type {SiteArea, SiteDeps} from '../types.js'
import {createNetworkModel} from './model.js'
import {createNetworkPageRenderer} from './network.js'
import {networkMiddleware} from './routes.js'

export function createNetworkPages(deps: SiteDeps): SiteArea {
  const {context} = deps
  const model = createNetworkModel({store: context.store, events: context.events, bus: context.bus, clock: context.clock, logger: context.logger})
  const hub = deps.streams('network')
  const stopFeed = model.onChange((node) => hub.broadcast('agent', node))
  const pages = createNetworkPageRenderer({context, model, assets: deps.assets, search: deps.search})
  return {
    name: 'network',
    middleware: networkMiddleware({assets: deps.assets, model, pages, hub}),
    live: {hub},
    start: () => model.start(),
    async close() {
      stopFeed()
      hub.closeAll()
      await model.close()
    },
  }
}
