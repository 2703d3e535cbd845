/**
 * Two nodes over one database: a cluster or board deleted through one node
 * leaves the other node's in-memory (non-persisted) posts behind; that
 * node's purge forgets them, even `forever` ones.
 */
import {afterEach, expect, it} from 'vitest'
import {createMemoryBoardStore} from '../../../src/cluster/boards/store.js'
import {createMemoryClusterStore} from '../../../src/cluster/store/store.js'
import {createBoard, createPost, makeWorld, type World} from './support.js'

const worlds: World[] = []
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close()
})

it('forgets in-memory posts whose board or cluster another node deleted', async () => {
  const shared = {boardStore: createMemoryBoardStore(), clusterStore: createMemoryClusterStore()}
  const memoryOfB = createMemoryBoardStore()
  const a = makeWorld(shared)
  const b = makeWorld({...shared, ephemeral: memoryOfB})
  worlds.push(a, b)
  const cluster = await a.addCluster({visibility: 'public', persist: false})
  const other = await a.addCluster({visibility: 'public', persist: false})
  const kept = await createBoard(a, cluster, {slug: 'kept', title: 'Kept'})
  const gone = await createBoard(a, cluster, {slug: 'gone', title: 'Gone'})
  const elsewhere = await createBoard(a, other, {slug: 'x', title: 'X'})
  const post = await createPost(b, cluster, 'kept', {ttl: 'forever'})
  await createPost(b, cluster, 'gone', {ttl: 'forever'})
  await createPost(b, other, 'x', {ttl: 'forever'})
  const held = () => memoryOfB.postBoards().map(({clusterId, boardId}) => `${clusterId}/${boardId}`).sort()
  expect(held()).toEqual([`${cluster.id}/${kept.board_id}`, `${cluster.id}/${gone.board_id}`, `${other.id}/${elsewhere.board_id}`].sort())

  // Node A deletes a board, and a whole cluster (as the relay's DELETE does: the row, then the part).
  expect((await a.http().delete(`/v1/clusters/${cluster.id}/boards/gone`).set('x-cluster-token', cluster.admin)).status).toBe(200)
  await shared.clusterStore.deleteCluster(other.id)
  await a.part.onClusterDeleted(other.id)
  expect(held()).toHaveLength(3)

  await b.part.purgeExpired()
  expect(held()).toEqual([`${cluster.id}/${kept.board_id}`])
  expect((await b.http().get(`/v1/clusters/${cluster.id}/boards/kept/posts`)).body.posts.map((p: {post_id: string}) => p.post_id)).toEqual([post.post.post_id])
})
