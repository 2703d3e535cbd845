/**
 * Shapes of boards and posts: the records the stores hold and the wire views
 * the routes answer with. spec: cluster "Board and post"; docs/boards.md.
 */
import type {ClusterProps, ClusterWhere} from '../types.js'
import type {PostTtl} from './constants.js'

export type {ResolvedTags} from '../types.js'

/** spec: `props.where`, a location point with an optional label. */
export type Where = ClusterWhere

/**
 * Structured props (`where`, `lang` as a BCP 47 tag, `age_min`), the same
 * shape at every level, inherited cluster → board → post: the nearer one
 * wins, key by key; `where` is replaced whole, never merged field by field.
 */
export type Props = ClusterProps

/** A board as the stores hold it. */
export interface BoardRecord {
  boardId: string
  clusterId: string
  /** Kebab-case, unique within its cluster. */
  slug: string
  title: string
  /** The room's machine-readable rules (free text, ≤ 4 KB). */
  charter: string
  props: Props
  createdAtMs: number
}

/** A post as the stores hold it. The delete token is held only as its SHA-256 hex hash. */
export interface PostRecord {
  postId: string
  clusterId: string
  boardId: string
  /** spec: the `agent` query parameter of the create call (self-asserted). */
  author: string
  title: string
  body: string
  ttl: PostTtl
  props: Props
  createdAtMs: number
  /** null = `forever`. A post is live while now < expiresAtMs. */
  expiresAtMs: number | null
  deleteTokenHash: string
}

/** A post without its body and token hash: what listing filters need. */
export type PostSummary = Omit<PostRecord, 'body' | 'deleteTokenHash'>

/** Wire shape of a board. */
export interface BoardView {
  board_id: string
  cluster_id: string
  slug: string
  title: string
  /** Present on the single-board read; omitted from the list to keep it small. */
  charter?: string
  props: Props
  /** cluster props ⊕ board props. */
  effective_props: Props
  /** True when effective `age_min` ≥ 18: posts are read only with `adult=1`. */
  age_gated: boolean
  created_at: string
}

/** Wire shape of a post. */
export interface PostView {
  post_id: string
  board_id: string
  /** The board's slug, handy for `#slug` references. */
  board: string
  cluster_id: string
  author: string
  title: string
  body: string
  ttl: PostTtl
  props: Props
  /** cluster props ⊕ board props ⊕ post props. */
  effective_props: Props
  created_at: string
  expires_at: string | null
  /** Great-circle distance from `near`, when the listing asked for one. */
  distance_km?: number
}
