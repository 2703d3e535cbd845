/** What every board and post operation shares: the cluster seam, the stores, the clock and the limits. */
import {createRateLimiter, type RateLimiter} from '../../http/rate-limit.js'
import type {Logger} from '../../lib/log.js'
import type {ClusterAccess, ClusterRecord} from '../types.js'
import type {BoardLimits} from './constants.js'
import type {BoardStore, MemoryBoardStore} from './store.js'

export interface BoardsContext {
  clusters: ClusterAccess
  /** The configured store: boards always, posts of clusters with `persist: true`. */
  store: BoardStore
  /** In-memory posts of clusters with `persist: false` (lost on restart, still ttl-bound). */
  ephemeral: MemoryBoardStore
  clock: () => number
  logger: Logger
  limits: BoardLimits
  postsPerIp: RateLimiter
  postsPerAgent: RateLimiter
}

export function createBoardsContext(options: Omit<BoardsContext, 'postsPerIp' | 'postsPerAgent'>): BoardsContext {
  const {limits, clock} = options
  return {
    ...options,
    postsPerIp: createRateLimiter({...limits.postsPerIp, now: clock}),
    postsPerAgent: createRateLimiter({...limits.postsPerAgent, now: clock}),
  }
}

/** spec: persistence is opt-in per cluster — where a new post of this cluster goes. */
export const writeStoreOf = (context: BoardsContext, cluster: ClusterRecord) => (cluster.persist ? context.store : context.ephemeral)

/**
 * Every store that may hold posts of a cluster: both, because `persist`
 * can be changed after posts were written under the other setting.
 */
export const postStoresOf = (context: BoardsContext) =>
  context.store === context.ephemeral ? [context.store] : [context.store, context.ephemeral]
