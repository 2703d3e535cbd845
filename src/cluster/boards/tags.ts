/**
 * Hashtag scoping. spec: writing `#<board-slug>` or `#<post-id>` in text makes
 * the relay resolve it into structured `board` and `ref` fields on the
 * outbound `message` frame. `board` is the board's slug (stable: boards are
 * never renamed), `ref` the post id; each is the first tag in the text that
 * names something real in that cluster.
 */
import {MAX_TAG_CANDIDATES, POST_ID_PREFIX} from './constants.js'
import {postStoresOf, type BoardsContext} from './context.js'
import {POST_ID_PATTERN} from './ids.js'
import type {ResolvedTags} from './types.js'

// A tag starts after the text start or a character that cannot be part of a
// word or URL (so `page#anchor` and `##x` are no tags) and runs over letters,
// digits, `_` and `-`.
const TAG = /(?<![\p{L}\p{N}_#&/:.-])#([\p{L}\p{N}_-]+)/gu

/** The tags of a text, in order, without the `#`, at most MAX_TAG_CANDIDATES. */
export function extractTags(text: string): string[] {
  const tags: string[] = []
  for (const match of text.matchAll(TAG)) {
    tags.push(match[1].replace(/-+$/, ''))
    if (tags.length >= MAX_TAG_CANDIDATES) break
  }
  return tags.filter((tag) => tag.length > 0)
}

/** Resolves the first board tag and the first post tag of a text in one cluster. */
export async function resolveTags(context: BoardsContext, clusterId: string, text: string): Promise<ResolvedTags> {
  const tags = extractTags(text)
  if (tags.length === 0) return {}
  const resolved: ResolvedTags = {}
  const postTags = tags.filter((tag) => tag.startsWith(POST_ID_PREFIX) && POST_ID_PATTERN.test(tag))
  const slugTags = tags.filter((tag) => !tag.startsWith(POST_ID_PREFIX)).map((tag) => tag.toLowerCase())
  if (slugTags.length > 0) {
    const slugs = new Set((await context.store.listBoards(clusterId)).map((board) => board.slug))
    resolved.board = slugTags.find((tag) => slugs.has(tag))
  }
  if (postTags.length > 0) {
    const now = context.clock()
    const live = new Set<string>()
    for (const store of postStoresOf(context)) {
      for (const post of await store.getPosts(clusterId, postTags, now)) live.add(post.postId)
    }
    resolved.ref = postTags.find((tag) => live.has(tag))
  }
  if (resolved.board === undefined) delete resolved.board
  if (resolved.ref === undefined) delete resolved.ref
  return resolved
}
