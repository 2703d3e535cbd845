/**
 * createRelay: the cluster relay as a MeshService (spec: cluster; docs/relay.md).
 * REST routes, then the boards part's routes, and the WebSocket upgrade of
 * `/v1/clusters/<id>/ws`. Several nodes share one store and one bus.
 */
import type {MeshService} from '../http/service.js'
import {notFound} from '../lib/errors.js'
import {createClusterAccess} from './access.js'
import {DEFAULT_LIMITS} from './constants.js'
import {Hub} from './hub.js'
import {KeyedLock} from './keyed-lock.js'
import {NO_RELAY_METRICS} from './metrics.js'
import {relayHealthRoute} from './http/health.js'
import {relayRoutes} from './http/routes.js'
import type {RelayLimits, RelayOptions, RelayService} from './types.js'
import {createUpgradeHandler} from './ws/upgrade.js'
import {createPublicClusterView} from './public-view.js'

/** Merges limits over the defaults; a limit that is not a positive number is a programming error. */
function resolveLimits(partial: Partial<RelayLimits> = {}): RelayLimits {
  const limits = {...DEFAULT_LIMITS, ...partial}
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`Relay limit ${key} must be a positive number, got ${value}`)
  }
  return limits
}

/**
 * Builds the relay. It does not own `store` or `bus`: the caller opened them
 * and closes them after `close()` (the registry shares both with its own parts).
 */
export function createRelay(options: RelayOptions): RelayService {
  if (!options.publicUrl || !/^https?:\/\//i.test(options.publicUrl)) throw new TypeError(`publicUrl must be an http(s) URL, got ${options.publicUrl}`)
  const clock = options.clock ?? Date.now
  const limits = resolveLimits(options.limits)
  const {store, bus, logger, boards} = options
  const clusters = createClusterAccess({store})
  const hub = new Hub({store, bus, clock, logger, limits, boards, metrics: options.metrics ?? NO_RELAY_METRICS})
  const routes = relayRoutes({store, hub, clusters, clock, limits, publicUrl: options.publicUrl, boards, creationLock: new KeyedLock()})
  // The relay's own routes first, then the boards part's (BoardsPart seam).
  const served: MeshService['middleware'] = boards ? (ctx, next) => routes(ctx, () => boards.middleware(ctx, next)) : routes
  const nodeView = () => ({node_id: hub.nodeId, peers: hub.peers.peers(), checked_at: hub.peers.checkedAt()})
  const health = relayHealthRoute(() => ({...nodeView(), bus: bus.status()}))
  const middleware: MeshService['middleware'] = (ctx, next) => health(ctx, () => served(ctx, next))
  const upgrade = createUpgradeHandler({hub, store, clusters, limits, logger, clock, proxy: options.proxy ?? false})

  return {
    name: 'relay',
    clusters,
    publicView: createPublicClusterView({store, hub, clusters, boards, publicUrl: options.publicUrl}),
    middleware,
    upgrade,
    nodeView,
    heartbeat: () => hub.heartbeat(),
    stats: () => hub.stats(),
    start: () => hub.start(),
    close: () => hub.stop(),
    async broadcast(clusterId, from, payload, token) {
      // By id only. Unknown, and private without its ck_/ak_ token, are the same 404 (DECISIONS: Private
      // clusters; a private id cannot be probed): the legacy channel route is no way around the token.
      const role = await clusters.authorize(clusterId, token)
      if (role === null) throw notFound('cluster_not_found', 'No such cluster')
      return hub.wall.broadcastAs(clusterId, from, payload)
    },
  }
}
