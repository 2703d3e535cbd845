/**
 * The public face of the relay for external surfaces (the registry's web
 * pages): the catalog with each cluster's `where`, and one public cluster
 * with its boards and latest posts. DECISIONS External surfaces: private
 * clusters are never shown, private-visibility handles are `member #n`,
 * ghosts are absent; an age-gated board is named with a notice and its
 * posts are never read.
 */
import type {BoardView, PostView} from './boards/types.js'
import type {ClusterStore} from './store/store.js'
import type {BoardsPart, ClusterAccess, ClusterWhere} from './types.js'
import {catalogItem, clusterDetail, clusterWsUrl, type CatalogItem, type ClusterDetail} from './views.js'

/** A catalog item with what the map and the catalog page need. */
export interface PublicClusterSummary extends CatalogItem {
  /** Cluster-level `props.where`, or null. */
  where: ClusterWhere | null
  created_at: string
}

export interface PublicBoard {
  board: BoardView
  /** The newest live posts, newest first; null when the board is age-gated (posts withheld). */
  posts: PostView[] | null
  /** True when the board holds more posts than shown. */
  more: boolean
  /** True when this board's posts were not read: the page's post budget (`maxPosts`) was spent on earlier boards. */
  skipped: boolean
}

export interface PublicClusterPage {
  /** The detail with members already masked (views.ts externalMembers). */
  cluster: ClusterDetail
  boards: PublicBoard[]
}

export interface PublicClusterView {
  /** Public clusters, newest first, with the total count. */
  catalog(page: {limit: number; offset: number}): Promise<{clusters: PublicClusterSummary[]; count: number}>
  /**
   * One public cluster by id or slug; null for unknown and private ones (a
   * private id is never revealed). Each board gets at most `postsPerBoard`
   * newest posts and the page at most `maxPosts` in all (default unbounded):
   * with many boards each gets fewer, at least one, until the budget is spent.
   * Boards come oldest first; only the first `boardsWithPosts` (default all)
   * have their posts read, the others are `skipped`.
   */
  cluster(idOrSlug: string, options: {postsPerBoard: number; maxPosts?: number; boardsWithPosts?: number}): Promise<PublicClusterPage | null>
}

export interface PublicViewDeps {
  store: ClusterStore
  /** The relay hub: only which nodes count as alive. */
  hub: {aliveSince(): number}
  clusters: ClusterAccess
  /** The boards part; without it every cluster shows no boards. */
  boards?: BoardsPart
  /** Public base URL for the cluster's `ws` address; without it the path alone. */
  publicUrl?: string
}

// The boards part caps one listing at 100 posts (boards/constants.ts MAX_PAGE_LIMIT).
const MAX_POSTS_PER_BOARD = 100

/** Built by relay.ts from its store, hub, access and boards. */
export function createPublicClusterView(deps: PublicViewDeps): PublicClusterView {
  const reads = deps.boards?.publicReads ?? null
  const wsUrl = (clusterId: string) => (deps.publicUrl ? clusterWsUrl(deps.publicUrl, clusterId) : `/v1/clusters/${clusterId}/ws`)

  return {
    async catalog({limit, offset}) {
      const {clusters, total} = await deps.store.listPublicClusters({limit: Math.max(0, Math.floor(limit)), offset: Math.max(0, Math.floor(offset))})
      // The same count as GET /v1/clusters: distinct non-ghost handles on live nodes.
      const online = await deps.store.onlineCounts(
        clusters.map((c) => c.cluster_id),
        deps.hub.aliveSince(),
      )
      return {
        clusters: clusters.map((c) => ({...catalogItem(c, online.get(c.cluster_id) ?? 0), where: c.props.where ?? null, created_at: c.created_at})),
        count: total,
      }
    },

    async cluster(idOrSlug, {postsPerBoard, maxPosts = Infinity, boardsWithPosts = Infinity}) {
      const record = await deps.clusters.get(idOrSlug)
      // Unknown and private are the same answer: a private id cannot be probed from a page.
      if (!record || record.visibility !== 'public') return null
      const entries = await deps.store.listPresence(record.cluster_id, deps.hub.aliveSince())
      const cluster = clusterDetail(record, entries, wsUrl(record.cluster_id))
      if (!reads) return {cluster, boards: []}
      const listed = (await reads.boards(record.cluster_id)).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.slug.localeCompare(b.slug))
      const open = listed.slice(0, boardsWithPosts).filter((b) => !b.age_gated).length
      const perBoard = Math.min(Math.max(1, Math.floor(postsPerBoard)), MAX_POSTS_PER_BOARD)
      // Share the page's budget: fewer per board when there are many boards, never below one.
      const limit = Math.max(1, Math.min(perBoard, Math.floor(maxPosts / Math.max(1, open))))
      let budget = maxPosts
      const boards: PublicBoard[] = []
      for (const [index, board] of listed.entries()) {
        // DECISIONS External surfaces: an age-gated board is named, its posts are never read.
        if (board.age_gated) boards.push({board, posts: null, more: false, skipped: false})
        else if (budget < 1 || index >= boardsWithPosts) boards.push({board, posts: [], more: false, skipped: true})
        else {
          const page = await reads.newestPosts(record.cluster_id, board.board_id, Math.min(limit, budget))
          budget -= page.posts.length
          boards.push({board, ...page, skipped: false})
        }
      }
      return {cluster, boards}
    },
  }
}
