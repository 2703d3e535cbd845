import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {isMeshError} from '../../../src/lib/errors.js'
import type {BoardStore} from '../../../src/cluster/boards/store.js'
import type {BoardRecord, PostRecord} from '../../../src/cluster/boards/types.js'

let counter = 0
/** Distinct, sortable ids for tests (real ids are random). */
const id = (prefix: string) => `${prefix}${String(++counter).padStart(26, 'a')}`

export const board = (clusterId: string, slug: string, overrides: Partial<BoardRecord> = {}): BoardRecord => ({
  boardId: id('b_'),
  clusterId,
  slug,
  title: `Board ${slug}`,
  charter: 'be kind',
  props: {lang: 'en'},
  createdAtMs: 1_000,
  ...overrides,
})

export const post = (b: BoardRecord, overrides: Partial<PostRecord> = {}): PostRecord => ({
  postId: id('p_'),
  clusterId: b.clusterId,
  boardId: b.boardId,
  author: 'ann',
  title: 'hello',
  body: 'body text ✓',
  ttl: '24h',
  props: {where: {lat: 1.5, lon: -2.25, label: 'here'}},
  createdAtMs: 10_000,
  expiresAtMs: 10_000 + 86_400_000,
  deleteTokenHash: 'ab'.repeat(32),
  ...overrides,
})

/** Behaviour every BoardStore shows; each adapter's test file calls this. */
export function boardStoreContract(name: string, make: () => Promise<{store: BoardStore; close(): Promise<void>}>) {
  describe(`BoardStore contract: ${name}`, () => {
    let store: BoardStore
    let close: () => Promise<void>
    beforeEach(async () => {
      ;({store, close} = await make())
    })
    afterEach(async () => {
      await close()
    })

    it('stores a board and finds it by id or slug, only within its cluster', async () => {
      const b = board('c_one', 'rides', {props: {where: {lat: 1, lon: 2, label: 'x'}, age_min: 21}})
      await store.insertBoard(b)
      expect(await store.getBoard('c_one', b.boardId)).toEqual(b)
      expect(await store.getBoard('c_one', 'rides')).toEqual(b)
      expect(await store.getBoard('c_two', 'rides')).toBeNull()
      expect(await store.getBoard('c_one', 'nope')).toBeNull()
    })

    it('refuses a second board with the same slug in a cluster (409 board_slug_taken) but allows it in another', async () => {
      await store.insertBoard(board('c_one', 'rides'))
      const error = await store.insertBoard(board('c_one', 'rides')).catch((e: unknown) => e)
      expect(isMeshError(error) && error.code).toBe('board_slug_taken')
      expect(isMeshError(error) && error.kind).toBe('conflict')
      await store.insertBoard(board('c_two', 'rides'))
      expect(await store.listBoards('c_two')).toHaveLength(1)
    })

    it('lists a cluster’s boards oldest first', async () => {
      const later = board('c_one', 'later', {createdAtMs: 2_000})
      const first = board('c_one', 'first', {createdAtMs: 1_000})
      await store.insertBoard(later)
      await store.insertBoard(first)
      await store.insertBoard(board('c_other', 'else'))
      expect((await store.listBoards('c_one')).map((b) => b.slug)).toEqual(['first', 'later'])
    })

    it('stores a post and returns it while live, never after expiry', async () => {
      const b = board('c_one', 'rides')
      await store.insertBoard(b)
      const p = post(b)
      expect(await store.insertPost(p, {cap: 10, nowMs: 10_000})).toEqual([])
      expect(await store.getPost('c_one', p.postId, 10_001)).toEqual(p)
      expect(await store.getPost('c_two', p.postId, 10_001)).toBeNull()
      expect(await store.getPost('c_one', p.postId, p.expiresAtMs! - 1)).not.toBeNull()
      expect(await store.getPost('c_one', p.postId, p.expiresAtMs!)).toBeNull()
      expect(await store.listPosts('c_one', b.boardId, p.expiresAtMs!)).toEqual([])
      expect(await store.getPosts('c_one', [p.postId], p.expiresAtMs!)).toEqual([])
    })

    it('keeps forever posts (expiresAtMs null) at any time', async () => {
      const b = board('c_one', 'rides')
      const p = post(b, {ttl: 'forever', expiresAtMs: null})
      await store.insertPost(p, {cap: 10, nowMs: 10_000})
      expect(await store.getPost('c_one', p.postId, 9e15)).toEqual(p)
      expect(await store.purgeExpired(9e15)).toBe(0)
    })

    it('lists live summaries of one board newest first, without body or token hash', async () => {
      const b = board('c_one', 'rides')
      const other = board('c_one', 'other')
      const old = post(b, {createdAtMs: 1})
      const mid = post(b, {createdAtMs: 2})
      const gone = post(b, {createdAtMs: 3, expiresAtMs: 5})
      const elsewhere = post(other, {createdAtMs: 4})
      for (const p of [old, mid, gone, elsewhere]) await store.insertPost(p, {cap: 10, nowMs: 0})
      const listed = await store.listPosts('c_one', b.boardId, 6)
      expect(listed.map((s) => s.postId)).toEqual([mid.postId, old.postId])
      expect(listed[0]).not.toHaveProperty('body')
      expect(listed[0]).not.toHaveProperty('deleteTokenHash')
      const {body: _b, deleteTokenHash: _h, ...summary} = mid
      expect(listed[0]).toEqual(summary)
    })

    it('breaks time ties by the higher post id first', async () => {
      const b = board('c_one', 'rides')
      const a1 = post(b, {createdAtMs: 7})
      const a2 = post(b, {createdAtMs: 7})
      await store.insertPost(a1, {cap: 10, nowMs: 0})
      await store.insertPost(a2, {cap: 10, nowMs: 0})
      expect((await store.listPosts('c_one', b.boardId, 0)).map((s) => s.postId)).toEqual([a2.postId, a1.postId])
    })

    it('fetches several posts by id, live ones of that cluster only', async () => {
      const b = board('c_one', 'rides')
      const p1 = post(b)
      const p2 = post(b, {expiresAtMs: 20})
      await store.insertPost(p1, {cap: 10, nowMs: 0})
      await store.insertPost(p2, {cap: 10, nowMs: 0})
      const got = await store.getPosts('c_one', [p1.postId, p2.postId, 'p_missing', p1.postId], 30)
      expect(got).toEqual([p1])
      expect(await store.getPosts('c_one', [], 30)).toEqual([])
      expect(await store.getPosts('c_x', [p1.postId], 30)).toEqual([])
    })

    it('drops the oldest posts beyond the per-board cap and returns their ids', async () => {
      const b = board('c_one', 'rides')
      const other = board('c_one', 'other')
      await store.insertPost(post(other, {createdAtMs: 0}), {cap: 2, nowMs: 0})
      const p1 = post(b, {createdAtMs: 1})
      const p2 = post(b, {createdAtMs: 2})
      const p3 = post(b, {createdAtMs: 3})
      await store.insertPost(p1, {cap: 2, nowMs: 1})
      await store.insertPost(p2, {cap: 2, nowMs: 2})
      expect(await store.insertPost(p3, {cap: 2, nowMs: 3})).toEqual([p1.postId])
      expect((await store.listPosts('c_one', b.boardId, 3)).map((s) => s.postId)).toEqual([p3.postId, p2.postId])
      expect(await store.listPosts('c_one', other.boardId, 3)).toHaveLength(1)
    })

    it('drops expired posts of the board before counting against the cap', async () => {
      const b = board('c_one', 'rides')
      const expired = post(b, {createdAtMs: 1, expiresAtMs: 5})
      const live = post(b, {createdAtMs: 2, expiresAtMs: null})
      await store.insertPost(expired, {cap: 2, nowMs: 2})
      await store.insertPost(live, {cap: 2, nowMs: 2})
      // At t=6 the expired one frees its slot: nothing live is dropped.
      expect(await store.insertPost(post(b, {createdAtMs: 6}), {cap: 2, nowMs: 6})).toEqual([])
      expect(await store.listPosts('c_one', b.boardId, 6)).toHaveLength(2)
    })

    it('deletes a post once, only in its cluster', async () => {
      const b = board('c_one', 'rides')
      const p = post(b)
      await store.insertPost(p, {cap: 10, nowMs: 0})
      expect(await store.deletePost('c_two', p.postId)).toBe(false)
      expect(await store.deletePost('c_one', p.postId)).toBe(true)
      expect(await store.deletePost('c_one', p.postId)).toBe(false)
      expect(await store.getPost('c_one', p.postId, 0)).toBeNull()
    })

    it('deletes a board with its posts', async () => {
      const b = board('c_one', 'rides')
      const keep = board('c_one', 'keep')
      await store.insertBoard(b)
      await store.insertBoard(keep)
      const p = post(b)
      const kept = post(keep)
      await store.insertPost(p, {cap: 10, nowMs: 0})
      await store.insertPost(kept, {cap: 10, nowMs: 0})
      expect(await store.deleteBoard('c_two', b.boardId)).toBe(false)
      expect(await store.deleteBoard('c_one', b.boardId)).toBe(true)
      expect(await store.getBoard('c_one', 'rides')).toBeNull()
      expect(await store.getPost('c_one', p.postId, 0)).toBeNull()
      expect(await store.getPost('c_one', kept.postId, 0)).not.toBeNull()
      expect(await store.deleteBoard('c_one', b.boardId)).toBe(false)
    })

    it('deletes the posts of a board it does not hold (posts kept apart from their board)', async () => {
      const b = board('c_one', 'rides')
      const p = post(b)
      await store.insertPost(p, {cap: 10, nowMs: 0})
      expect(await store.deleteBoard('c_one', b.boardId)).toBe(false)
      expect(await store.getPost('c_one', p.postId, 0)).toBeNull()
    })

    it('forgets every board and post of a deleted cluster, and nothing else', async () => {
      const b = board('c_one', 'rides')
      const o = board('c_two', 'rides')
      await store.insertBoard(b)
      await store.insertBoard(o)
      await store.insertPost(post(b), {cap: 10, nowMs: 0})
      const kept = post(o)
      await store.insertPost(kept, {cap: 10, nowMs: 0})
      await store.deleteCluster('c_one')
      expect(await store.listBoards('c_one')).toEqual([])
      expect(await store.listPosts('c_one', b.boardId, 0)).toEqual([])
      expect(await store.listBoards('c_two')).toHaveLength(1)
      expect(await store.getPost('c_two', kept.postId, 0)).not.toBeNull()
    })

    it('purges expired posts and counts them', async () => {
      const b = board('c_one', 'rides')
      await store.insertPost(post(b, {expiresAtMs: 100}), {cap: 10, nowMs: 0})
      await store.insertPost(post(b, {expiresAtMs: 200}), {cap: 10, nowMs: 0})
      await store.insertPost(post(b, {expiresAtMs: null}), {cap: 10, nowMs: 0})
      expect(await store.purgeExpired(150)).toBe(1)
      expect(await store.purgeExpired(150)).toBe(0)
      expect(await store.purgeExpired(200)).toBe(1)
      expect(await store.listPosts('c_one', b.boardId, 0)).toHaveLength(1)
    })

    it('returns copies: changing a returned record changes nothing stored', async () => {
      const b = board('c_one', 'rides')
      await store.insertBoard(b)
      const got = (await store.getBoard('c_one', 'rides'))!
      got.props.lang = 'fr'
      got.title = 'changed'
      expect(await store.getBoard('c_one', 'rides')).toEqual(b)
    })
  })
}
