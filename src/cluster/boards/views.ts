/** Records → wire shapes (snake_case, ISO-8601 UTC times, inherited props spelled out). */
import type {ClusterRecord} from '../types.js'
import {roundKm} from './geo.js'
import {inheritProps, isAgeGated} from './props.js'
import type {BoardRecord, BoardView, PostSummary, PostView, Props} from './types.js'

const iso = (ms: number) => new Date(ms).toISOString()

/** cluster ⊕ board props. */
export const boardEffectiveProps = (cluster: ClusterRecord, board: BoardRecord): Props => inheritProps(cluster.props, board.props)

/** cluster ⊕ board ⊕ post props. */
export const postEffectiveProps = (cluster: ClusterRecord, board: BoardRecord, post: Pick<PostSummary, 'props'>): Props =>
  inheritProps(cluster.props, board.props, post.props)

export function boardView(cluster: ClusterRecord, board: BoardRecord, options: {charter: boolean}): BoardView {
  const effective = boardEffectiveProps(cluster, board)
  return {
    board_id: board.boardId,
    cluster_id: board.clusterId,
    slug: board.slug,
    title: board.title,
    ...(options.charter ? {charter: board.charter} : {}),
    props: board.props,
    effective_props: effective,
    age_gated: isAgeGated(effective),
    created_at: iso(board.createdAtMs),
  }
}

export function postView(cluster: ClusterRecord, board: BoardRecord, post: PostSummary & {body: string}, distanceKm?: number): PostView {
  return {
    post_id: post.postId,
    board_id: post.boardId,
    board: board.slug,
    cluster_id: post.clusterId,
    author: post.author,
    title: post.title,
    body: post.body,
    ttl: post.ttl,
    props: post.props,
    effective_props: postEffectiveProps(cluster, board, post),
    created_at: iso(post.createdAtMs),
    expires_at: post.expiresAtMs === null ? null : iso(post.expiresAtMs),
    ...(distanceKm === undefined ? {} : {distance_km: roundKm(distanceKm)}),
  }
}
