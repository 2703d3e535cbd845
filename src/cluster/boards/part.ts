/**
 * `createBoardsPart`: boards and posts as the part the relay mounts
 * (BoardsPart in src/cluster/types.ts), plus a periodic purge of expired posts.
 */
import type {Logger} from '../../lib/log.js'
import type {BoardsPart, ClusterAccess} from '../types.js'
import {DEFAULT_BOARD_LIMITS, type BoardLimits} from './constants.js'
import {createBoardsContext, postStoresOf} from './context.js'
import {listBoards} from './board-ops.js'
import {listPosts} from './post-ops.js'
import {boardRoutes} from './routes.js'
import {createMemoryBoardStore, type BoardStore, type MemoryBoardStore} from './store.js'
import {resolveTags} from './tags.js'

export interface BoardsPartOptions {
  clusters: ClusterAccess
  /** Boards, and posts of clusters with `persist: true`. Default: in memory. */
  store?: BoardStore
  /** Posts of clusters without persistence, this process only. Default: a fresh in-memory store. */
  ephemeral?: MemoryBoardStore
  /** Milliseconds since the epoch; injected so tests control expiry. */
  clock?: () => number
  logger: Logger
  /** Overrides of DEFAULT_BOARD_LIMITS (DECISIONS: limits are configurable). */
  limits?: Partial<BoardLimits>
}

/** The part plus what its owner calls besides the relay's seam. */
export interface BoardsPartHandle extends BoardsPart {
  /** Deletes expired posts from every store now; returns how many. Also runs every `purgeIntervalMs`. */
  purgeExpired(): Promise<number>
  /** Stops the periodic purge. The stores stay open: their owner closes them. */
  close(): Promise<void>
}

/** Builds the boards part over a cluster seam and a store (see docs/boards.md). */
export function createBoardsPart(options: BoardsPartOptions): BoardsPartHandle {
  if (!options.clusters) throw new TypeError('createBoardsPart needs `clusters` (a ClusterAccess)')
  const limits: BoardLimits = {...DEFAULT_BOARD_LIMITS, ...options.limits}
  if (!(limits.postsPerBoard >= 1)) throw new TypeError('limits.postsPerBoard must be at least 1')
  const context = createBoardsContext({
    clusters: options.clusters,
    store: options.store ?? createMemoryBoardStore(),
    ephemeral: options.ephemeral ?? createMemoryBoardStore(),
    clock: options.clock ?? Date.now,
    logger: options.logger,
    limits,
  })

  const purgeExpired = async () => {
    let count = 0
    const now = context.clock()
    for (const store of postStoresOf(context)) count += await store.purgeExpired(now)
    if (count > 0) context.logger.debug('expired posts purged', {count})
    await forgetOrphans()
    return count
  }
  /**
   * In-memory posts whose cluster or board is gone. With several nodes a
   * cluster or board is deleted on one node; the others' memory still held
   * its non-persisted posts (unreachable, but a `forever` post would stay).
   */
  const forgetOrphans = async () => {
    const clusterAlive = new Map<string, boolean>()
    for (const {clusterId, boardId} of context.ephemeral.postBoards()) {
      if (!clusterAlive.has(clusterId)) clusterAlive.set(clusterId, (await context.clusters.get(clusterId)) !== null)
      if (!clusterAlive.get(clusterId)) await context.ephemeral.deleteCluster(clusterId)
      else if (!(await context.store.getBoard(clusterId, boardId))) await context.ephemeral.deleteBoard(clusterId, boardId)
    }
  }
  // Expiry is enforced on every read; the purge only reclaims space, so it
  // must never keep the process alive.
  const timer =
    limits.purgeIntervalMs > 0
      ? setInterval(() => {
          purgeExpired().catch((error: unknown) => context.logger.warn('post purge failed', {error: String(error)}))
        }, limits.purgeIntervalMs)
      : undefined
  timer?.unref()

  return {
    middleware: boardRoutes(context),
    async resolveTags(clusterId, text) {
      try {
        return await resolveTags(context, clusterId, text)
      } catch (error) {
        // A failing lookup must not stop the message itself.
        context.logger.warn('hashtag resolution failed', {cluster_id: clusterId, error: String(error)})
        return {}
      }
    },
    async onClusterDeleted(clusterId) {
      for (const store of postStoresOf(context)) await store.deleteCluster(clusterId)
    },
    publicReads: {
      async boards(clusterId) {
        return (await listBoards(context, clusterId)).boards
      },
      async newestPosts(clusterId, boardId, limit) {
        const page = await listPosts(context, clusterId, boardId, undefined, {limit: String(limit)})
        return {posts: page.posts, more: page.next_cursor !== null}
      },
    },
    purgeExpired,
    async close() {
      if (timer) clearInterval(timer)
    },
  }
}
