/**
 * Where boards and posts live. One interface, one implementation per file:
 * this file (in memory), sqlite.ts, postgres.ts. Every store keeps expiry
 * honest on read: an expired post is never returned, purged or not.
 */
import {conflict} from '../../lib/errors.js'
import {isLive} from './ttl.js'
import type {BoardRecord, PostRecord, PostSummary} from './types.js'

export interface InsertPostOptions {
  /** Live posts kept on the post's board; the oldest beyond it are dropped. */
  cap: number
  nowMs: number
}

export interface BoardStore {
  /** Adds a board; throws a 409 MeshError `board_slug_taken` when the slug exists in that cluster. */
  insertBoard(board: BoardRecord): Promise<void>
  /** A board of the cluster by id (`b_…`) or slug. */
  getBoard(clusterId: string, idOrSlug: string): Promise<BoardRecord | null>
  /** The cluster's boards, oldest first. */
  listBoards(clusterId: string): Promise<BoardRecord[]>
  /** Deletes a board and every post on it; false when there was none. */
  deleteBoard(clusterId: string, boardId: string): Promise<boolean>
  /**
   * Adds a post, first dropping the board's expired posts, then the oldest
   * live ones beyond `cap` (the new post counts). Returns the dropped ids.
   */
  insertPost(post: PostRecord, options: InsertPostOptions): Promise<string[]>
  /** A live post of the cluster, or null (unknown, deleted or expired). */
  getPost(clusterId: string, postId: string, nowMs: number): Promise<PostRecord | null>
  /** Live posts of the given ids (order not kept). */
  getPosts(clusterId: string, postIds: string[], nowMs: number): Promise<PostRecord[]>
  /** Live posts of a board without bodies, newest first (ties: higher id first). */
  listPosts(clusterId: string, boardId: string, nowMs: number): Promise<PostSummary[]>
  /** false when there was none. */
  deletePost(clusterId: string, postId: string): Promise<boolean>
  /** Forgets every board and post of a cluster (the cluster was deleted). */
  deleteCluster(clusterId: string): Promise<void>
  /** Deletes every expired post; returns how many. */
  purgeExpired(nowMs: number): Promise<number>
}

/** Newest first, ties broken by the higher id: the one order every store returns. */
export const newestFirst = (a: PostSummary, b: PostSummary) =>
  b.createdAtMs - a.createdAtMs || (a.postId < b.postId ? 1 : a.postId > b.postId ? -1 : 0)

const summary = ({body: _body, deleteTokenHash: _hash, ...rest}: PostRecord): PostSummary => rest
const copy = <T>(value: T): T => structuredClone(value)

export const slugTaken = (slug: string) => conflict('board_slug_taken', `A board with slug "${slug}" already exists in this cluster`, {field: 'slug'})

/** The in-memory store, which can also say which boards hold its posts. */
export interface MemoryBoardStore extends BoardStore {
  /** Every (cluster, board) pair that holds at least one post, expired ones included. */
  postBoards(): Array<{clusterId: string; boardId: string}>
}

/**
 * The in-memory store: the default of tests and of clusters without
 * persistence (posts then die with the process, still bound by their ttl).
 * Posts do not require their board to be in this store, so the boards part
 * can keep boards in the database and non-persisted posts here.
 */
export function createMemoryBoardStore(): MemoryBoardStore {
  const boards = new Map<string, BoardRecord>()
  const posts = new Map<string, PostRecord>()
  // Post ids per board, so a board's reads never scan other boards' posts.
  const postIdsByBoard = new Map<string, Set<string>>()
  const boardKey = (clusterId: string, boardId: string) => `${clusterId}\n${boardId}`
  const boardsOf = (clusterId: string) => [...boards.values()].filter((b) => b.clusterId === clusterId)
  const postsOfBoard = (clusterId: string, boardId: string) =>
    [...(postIdsByBoard.get(boardKey(clusterId, boardId)) ?? [])].map((id) => posts.get(id)!)
  const removePost = (post: PostRecord) => {
    posts.delete(post.postId)
    const key = boardKey(post.clusterId, post.boardId)
    const ids = postIdsByBoard.get(key)
    ids?.delete(post.postId)
    if (ids?.size === 0) postIdsByBoard.delete(key)
  }
  const addPost = (post: PostRecord) => {
    posts.set(post.postId, post)
    const key = boardKey(post.clusterId, post.boardId)
    let ids = postIdsByBoard.get(key)
    if (!ids) postIdsByBoard.set(key, (ids = new Set()))
    ids.add(post.postId)
  }

  return {
    postBoards() {
      return [...postIdsByBoard.keys()].map((key) => {
        const [clusterId, boardId] = key.split('\n')
        return {clusterId, boardId}
      })
    },
    async insertBoard(board) {
      if (boardsOf(board.clusterId).some((b) => b.slug === board.slug)) throw slugTaken(board.slug)
      boards.set(board.boardId, copy(board))
    },
    async getBoard(clusterId, idOrSlug) {
      const found = boardsOf(clusterId).find((b) => b.boardId === idOrSlug || b.slug === idOrSlug)
      return found ? copy(found) : null
    },
    async listBoards(clusterId) {
      return boardsOf(clusterId)
        .sort((a, b) => a.createdAtMs - b.createdAtMs || (a.boardId < b.boardId ? -1 : 1))
        .map(copy)
    },
    async deleteBoard(clusterId, boardId) {
      const board = boards.get(boardId)
      for (const post of postsOfBoard(clusterId, boardId)) removePost(post)
      if (!board || board.clusterId !== clusterId) return false
      boards.delete(boardId)
      return true
    },
    async insertPost(post, {cap, nowMs}) {
      const dropped: string[] = []
      for (const old of postsOfBoard(post.clusterId, post.boardId)) {
        if (!isLive(old.expiresAtMs, nowMs)) removePost(old)
      }
      const previous = posts.get(post.postId)
      if (previous) removePost(previous)
      addPost(copy(post))
      const live = postsOfBoard(post.clusterId, post.boardId).sort(newestFirst)
      for (const old of live.slice(Math.max(0, cap))) {
        removePost(old)
        dropped.push(old.postId)
      }
      return dropped
    },
    async getPost(clusterId, postId, nowMs) {
      const post = posts.get(postId)
      return post && post.clusterId === clusterId && isLive(post.expiresAtMs, nowMs) ? copy(post) : null
    },
    async getPosts(clusterId, postIds, nowMs) {
      const found: PostRecord[] = []
      for (const id of new Set(postIds)) {
        const post = posts.get(id)
        if (post && post.clusterId === clusterId && isLive(post.expiresAtMs, nowMs)) found.push(copy(post))
      }
      return found
    },
    async listPosts(clusterId, boardId, nowMs) {
      return postsOfBoard(clusterId, boardId)
        .filter((p) => isLive(p.expiresAtMs, nowMs))
        .sort(newestFirst)
        .map((p) => copy(summary(p)))
    },
    async deletePost(clusterId, postId) {
      const post = posts.get(postId)
      if (!post || post.clusterId !== clusterId) return false
      removePost(post)
      return true
    },
    async deleteCluster(clusterId) {
      for (const board of boardsOf(clusterId)) boards.delete(board.boardId)
      for (const post of [...posts.values()]) if (post.clusterId === clusterId) removePost(post)
    },
    async purgeExpired(nowMs) {
      let count = 0
      for (const post of [...posts.values()]) {
        if (!isLive(post.expiresAtMs, nowMs)) {
          removePost(post)
          count++
        }
      }
      return count
    },
  }
}
