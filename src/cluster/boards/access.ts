/**
 * Who may reach which cluster and board. spec Errors: a private id cannot be
 * probed (404); DECISIONS: board and post routes of a private cluster need
 * the `ck_` token (or the `ak_` one) and answer 404 without it.
 */
import {notFound, unauthorized} from '../../lib/errors.js'
import type {ClusterRecord, ClusterRole} from '../types.js'
import {SLUG_MAX_CHARS} from './constants.js'
import type {BoardsContext} from './context.js'
import {BOARD_ID_PATTERN} from './ids.js'
import {SLUG_PATTERN} from './slug.js'
import type {BoardRecord} from './types.js'

export interface OpenCluster {
  cluster: ClusterRecord
  role: ClusterRole
}

const clusterNotFound = () => notFound('cluster_not_found', 'No such cluster')

/** The cluster and the caller's role on it; unknown and unreachable private clusters are the same 404. */
export async function openCluster(context: BoardsContext, clusterRef: string, token: string | undefined): Promise<OpenCluster> {
  const cluster = await context.clusters.get(clusterRef)
  if (!cluster) throw clusterNotFound()
  const role = await context.clusters.authorize(cluster.cluster_id, token)
  if (role === null || (cluster.visibility === 'private' && role === 'public')) throw clusterNotFound()
  return {cluster, role}
}

/** spec Authentication: only the admin token administers; the `ck_` token is refused with 401. */
export function requireAdmin(role: ClusterRole): void {
  if (role !== 'admin') {
    throw unauthorized('admin_token_required', "This needs the cluster's admin token (ak_…) in x-cluster-token, Authorization: Bearer or ?token=")
  }
}

/** Only a `b_` id or a slug can name a board; anything else (`%00` included, which PostgreSQL cannot compare) is unknown without a query. */
const looksLikeBoardRef = (ref: string) => BOARD_ID_PATTERN.test(ref) || (ref.length <= SLUG_MAX_CHARS && SLUG_PATTERN.test(ref))

/** A board of the cluster by id or slug, or 404 board_not_found. */
export async function openBoard(context: BoardsContext, cluster: ClusterRecord, boardRef: string): Promise<BoardRecord> {
  const board = looksLikeBoardRef(boardRef) ? await context.store.getBoard(cluster.cluster_id, boardRef) : null
  if (!board) throw notFound('board_not_found', `No board "${boardRef}" in this cluster`)
  return board
}
