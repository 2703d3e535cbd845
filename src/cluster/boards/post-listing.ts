/**
 * Filtering and paging of a board's posts. A board holds at most
 * `postsPerBoard` live posts, so the filters run over its summaries in
 * memory (effective props need the cluster and board layers anyway) and
 * only the page's bodies are fetched.
 */
import type {ClusterRecord} from '../types.js'
import {distanceKm} from './geo.js'
import {isAgeGated, langMatches} from './props.js'
import {encodeCursor, type PageCursor, type PostListQuery} from './post-query.js'
import type {BoardRecord, PostSummary} from './types.js'
import {postEffectiveProps} from './views.js'

export interface ListedPost {
  summary: PostSummary
  /** Set when the query has `near`. */
  distanceKm?: number
}

export interface PostPage {
  items: ListedPost[]
  nextCursor: string | null
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Whether `item` sorts after the cursor position in the listing's order. */
function afterCursor(item: ListedPost, cursor: PageCursor): boolean {
  if (cursor.mode === 'd') {
    const key = item.distanceKm!
    return key > cursor.key || (key === cursor.key && item.summary.postId > cursor.id)
  }
  const key = item.summary.createdAtMs
  return key < cursor.key || (key === cursor.key && item.summary.postId < cursor.id)
}

/**
 * Applies the filters on effective props: posts gated as adult (age_min ≥ 18)
 * without `adult`, another `lang`, no `where` or outside `km` of `near`.
 * Order: newest first; nearest first when `near` is given.
 */
export function selectPostPage(cluster: ClusterRecord, board: BoardRecord, summaries: PostSummary[], query: PostListQuery): PostPage {
  const matching: ListedPost[] = []
  for (const summary of summaries) {
    const effective = postEffectiveProps(cluster, board, summary)
    if (!query.adult && isAgeGated(effective)) continue
    if (query.lang !== undefined && !langMatches(query.lang, effective.lang)) continue
    if (!query.near) {
      matching.push({summary})
      continue
    }
    if (!effective.where) continue
    const distance = distanceKm(query.near, effective.where)
    if (query.km !== undefined && distance > query.km) continue
    matching.push({summary, distanceKm: distance})
  }
  if (query.near) matching.sort((a, b) => a.distanceKm! - b.distanceKm! || byId(a.summary.postId, b.summary.postId))
  else matching.sort((a, b) => b.summary.createdAtMs - a.summary.createdAtMs || byId(b.summary.postId, a.summary.postId))

  const rest = query.cursor ? matching.filter((item) => afterCursor(item, query.cursor!)) : matching
  const items = rest.slice(0, query.limit)
  const last = items.at(-1)
  const nextCursor =
    rest.length > items.length && last
      ? encodeCursor(
          query.near
            ? {mode: 'd', key: last.distanceKm!, id: last.summary.postId}
            : {mode: 't', key: last.summary.createdAtMs, id: last.summary.postId},
        )
      : null
  return {items, nextCursor}
}
