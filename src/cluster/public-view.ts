/**
 * The public face of the relay for external surfaces (the registry's web
 * pages): the catalog with each cluster's `where`, and one public cluster
 * with its boards and latest posts. DECISIONS External surfaces: private
 * clusters are never shown, private-visibility handles are `member #n`,
 * ghosts are absent; an age-gated board is named with a notice and its
 * posts are never read.
 */
import type {BoardView, PostView} from './boards/types.js'
import type {ClusterWhere} from './types.js'
import type {CatalogItem, ClusterDetail} from './views.js'

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
}

export interface PublicClusterPage {
  /** The detail with members already masked (views.ts externalMembers). */
  cluster: ClusterDetail
  boards: PublicBoard[]
}

export interface PublicClusterView {
  /** Public clusters, newest first, with the total count. */
  catalog(page: {limit: number; offset: number}): Promise<{clusters: PublicClusterSummary[]; count: number}>
  /** One public cluster by id or slug; null for unknown and private ones (a private id is never revealed). */
  cluster(idOrSlug: string, options: {postsPerBoard: number}): Promise<PublicClusterPage | null>
}

/** Built by relay.ts from its store, hub, access and boards. */
export function createPublicClusterView(_deps: {store: unknown; hub: unknown; clusters: unknown; boards: unknown}): PublicClusterView {
  const notYet = () => Promise.reject(new Error('public cluster view: not built yet'))
  return {catalog: notYet, cluster: notYet}
}
