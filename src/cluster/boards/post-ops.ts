/** Reading, pinning and deleting posts. Shapes: docs/boards.md. */
import {forbidden, invalid, notFound, unauthorized} from '../../lib/errors.js'
import {assertStorableJson} from '../../lib/storable-json.js'
import {assertShaped, PROPS_SHAPES, TITLE_SHAPE} from '../schema-shapes.js'
import type {ClusterRecord} from '../types.js'
import {openBoard, openCluster} from './access.js'
import {POST_BODY_MAX_BYTES, type PostTtl} from './constants.js'
import {postStoresOf, writeStoreOf, type BoardsContext} from './context.js'
import {hashToken, newDeleteToken, newPostId, POST_ID_PATTERN, tokenMatches} from './ids.js'
import {selectPostPage} from './post-listing.js'
import {parsePostListQuery} from './post-query.js'
import {cleanProps, isAgeGated} from './props.js'
import {expiresAt} from './ttl.js'
import type {BoardRecord, PostRecord, PostSummary, PostView, Props} from './types.js'
import {boardEffectiveProps, postEffectiveProps, postView} from './views.js'

export interface PostCreateInput {
  title: string
  body: string
  ttl: PostTtl
  props?: Props
}

/** Who is pinning: the self-asserted handle and the client address, for the rate limits. */
export interface PostAuthor {
  agent: string
  ip: string
}

const ageGated = () => forbidden('age_gated', 'This board is for adults (age_min ≥ 18); read it with adult=1 to assert you are one')

/** A live post of the board from whichever store holds it. */
async function findPost(context: BoardsContext, cluster: ClusterRecord, board: BoardRecord, postId: string): Promise<PostRecord> {
  const now = context.clock()
  // Only a `p_` id can name a post; anything else (`%00`, which PostgreSQL cannot compare) is unknown without a query.
  const stores = POST_ID_PATTERN.test(postId) ? postStoresOf(context) : []
  for (const store of stores) {
    const post = await store.getPost(cluster.cluster_id, postId, now)
    if (post && post.boardId === board.boardId) return post
  }
  throw notFound('post_not_found', `No live post "${postId}" on this board`)
}

/** `GET …/posts` → `{posts, count, next_cursor}`. spec Errors: an adult board without `adult=1` is 403 age_gated. */
export async function listPosts(context: BoardsContext, clusterRef: string, boardRef: string, token: string | undefined, rawQuery: unknown) {
  const {cluster} = await openCluster(context, clusterRef, token)
  const board = await openBoard(context, cluster, boardRef)
  const query = parsePostListQuery(rawQuery)
  if (!query.adult && isAgeGated(boardEffectiveProps(cluster, board))) throw ageGated()
  const now = context.clock()
  const seen = new Set<string>()
  const summaries: PostSummary[] = []
  for (const store of postStoresOf(context)) {
    for (const summary of await store.listPosts(cluster.cluster_id, board.boardId, now)) {
      if (seen.has(summary.postId)) continue
      seen.add(summary.postId)
      summaries.push(summary)
    }
  }
  const page = selectPostPage(cluster, board, summaries, query)
  const ids = page.items.map((item) => item.summary.postId)
  const bodies = new Map<string, string>()
  for (const store of postStoresOf(context)) {
    for (const post of await store.getPosts(cluster.cluster_id, ids, now)) bodies.set(post.postId, post.body)
  }
  // A post deleted between the two reads is left out rather than shown without its body.
  const posts: PostView[] = page.items
    .filter((item) => bodies.has(item.summary.postId))
    .map((item) => postView(cluster, board, {...item.summary, body: bodies.get(item.summary.postId)!}, item.distanceKm))
  return {posts, count: posts.length, next_cursor: page.nextCursor}
}

/** `POST …/posts?agent=` → `{post, delete_token}`; the token is shown once and stored hashed. */
export async function createPost(context: BoardsContext, clusterRef: string, boardRef: string, token: string | undefined, author: PostAuthor, body: () => Promise<unknown>) {
  const {cluster} = await openCluster(context, clusterRef, token)
  const board = await openBoard(context, cluster, boardRef)
  // DECISIONS: limits are configurable and answer 429; the handle is self-asserted, so the IP bounds it too.
  context.postsPerIp.hit(author.ip)
  context.postsPerAgent.hit(`${cluster.cluster_id}\n${author.agent}`)
  const input = assertShaped<PostCreateInput>('post-create', await body(), {...PROPS_SHAPES, title: TITLE_SHAPE})
  // Also for posts kept in memory: whether a cluster persists must not change what a post may hold.
  assertStorableJson(input)
  if (Buffer.byteLength(input.body, 'utf8') > POST_BODY_MAX_BYTES) {
    throw invalid('field_too_long', `body is over ${POST_BODY_MAX_BYTES} bytes of UTF-8`, {field: 'body'})
  }
  const now = context.clock()
  const deleteToken = newDeleteToken()
  const post: PostRecord = {
    postId: newPostId(),
    clusterId: cluster.cluster_id,
    boardId: board.boardId,
    author: author.agent,
    title: input.title.trim(),
    body: input.body,
    ttl: input.ttl,
    props: cleanProps(input.props),
    createdAtMs: now,
    expiresAtMs: expiresAt(now, input.ttl),
    deleteTokenHash: hashToken(deleteToken),
  }
  const dropped = await writeStoreOf(context, cluster).insertPost(post, {cap: context.limits.postsPerBoard, nowMs: now})
  if (dropped.length > 0) context.logger.debug('board over its cap; oldest posts dropped', {board_id: board.boardId, dropped: dropped.length})
  return {post: postView(cluster, board, post), delete_token: deleteToken}
}

/** `GET …/posts/:pid` → `{post}`; an adult board or post needs `adult`. */
export async function getPost(context: BoardsContext, clusterRef: string, boardRef: string, postId: string, token: string | undefined, adult: boolean) {
  const {cluster} = await openCluster(context, clusterRef, token)
  const board = await openBoard(context, cluster, boardRef)
  if (!adult && isAgeGated(boardEffectiveProps(cluster, board))) throw ageGated()
  const post = await findPost(context, cluster, board, postId)
  if (!adult && isAgeGated(postEffectiveProps(cluster, board, post))) throw ageGated()
  return {post: postView(cluster, board, post)}
}

/**
 * `DELETE …/posts/:pid` → `{ok, post_id}`. DECISIONS: the author's one-time
 * delete token or the cluster's admin token; anything else (the `ck_` token
 * included) is 401.
 */
export async function deletePost(context: BoardsContext, clusterRef: string, boardRef: string, postId: string, token: string | undefined, deleteToken: string | undefined) {
  const {cluster, role} = await openCluster(context, clusterRef, token)
  const board = await openBoard(context, cluster, boardRef)
  const post = await findPost(context, cluster, board, postId)
  const allowed = role === 'admin' || (deleteToken !== undefined && tokenMatches(deleteToken, post.deleteTokenHash))
  if (!allowed) {
    throw deleteToken === undefined
      ? unauthorized('delete_token_required', "Deleting a post needs its delete_token (x-delete-token or ?delete_token=) or the cluster's admin token")
      : unauthorized('invalid_delete_token', 'That delete token does not belong to this post')
  }
  for (const store of postStoresOf(context)) await store.deletePost(cluster.cluster_id, post.postId)
  return {ok: true as const, post_id: post.postId}
}
