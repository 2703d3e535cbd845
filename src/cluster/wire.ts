/**
 * The relay's wire shapes, for clients (src/client/cluster/). Type-only:
 * every shape is re-exported from, or derived from, the code that sends it,
 * so a client importing this loads no server code and cannot drift from it.
 */
import type {listCatalog} from './cluster-ops.js'
import type {listBoards} from './boards/board-ops.js'
import type {createPost, listPosts} from './boards/post-ops.js'

export type {AckFrame, ClosedFrame, ClosedReason, ErrorFrame, MessageFrame, PresenceFrame, ReadyFrame, ServerFrame} from './ws/frames.js'
export type {CatalogItem, ClusterDetail, ExternalMember} from './views.js'
export type {CreateBody as CreateClusterInput, CreatedCluster} from './cluster-ops.js'
export type {ClusterVisibility, MemberVis} from './types.js'
export type {BoardView, PostView, Props} from './boards/types.js'
export type {BoardCreateInput} from './boards/board-ops.js'
export type {PostCreateInput} from './boards/post-ops.js'
export type {PostTtl} from './boards/constants.js'

/** `GET /v1/clusters`: the public catalog. */
export type ClusterList = Awaited<ReturnType<typeof listCatalog>>
/** `GET /v1/clusters/:id/boards`. */
export type BoardList = Awaited<ReturnType<typeof listBoards>>
/** `GET /v1/clusters/:id/boards/:bid/posts`. */
export type PostList = Awaited<ReturnType<typeof listPosts>>
/** `POST /v1/clusters/:id/boards/:bid/posts`: the post and its one-time delete token. */
export type CreatedPost = Awaited<ReturnType<typeof createPost>>
