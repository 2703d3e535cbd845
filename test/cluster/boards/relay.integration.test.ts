/**
 * The boards part mounted in the real relay: clusters created over HTTP,
 * board and post routes beside the relay's, hashtags resolved on the wall,
 * and a cluster delete wiping its boards.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {createClusterAccess} from '../../../src/cluster/access.js'
import {createBoardsPart, type BoardsPartHandle} from '../../../src/cluster/boards/part.js'
import {createMemoryBoardStore, type BoardStore} from '../../../src/cluster/boards/store.js'
import {createMemoryClusterStore} from '../../../src/cluster/store/store.js'
import {silentLogger} from '../../../src/lib/log.js'
import {api, createCluster, join, startRelay, type TestRelay} from '../helpers.js'

describe('boards inside the relay', () => {
  let relay: TestRelay
  let part: BoardsPartHandle
  let boardStore: BoardStore
  const start = async () => {
    const store = createMemoryClusterStore()
    boardStore = createMemoryBoardStore()
    part = createBoardsPart({clusters: createClusterAccess({store}), store: boardStore, logger: silentLogger})
    relay = await startRelay({store, boards: part})
  }
  afterEach(async () => {
    await relay.stop()
    await part.close()
  })

  it('serves board and post routes for a cluster created over HTTP, hiding a private one without its token', async () => {
    await start()
    const cluster = await createCluster(relay.url, {name: 'Ride share', props: {lang: 'fr', where: {lat: 48.85, lon: 2.35}}})
    const admin = {'x-cluster-token': cluster.admin_token}
    const member = {'x-cluster-token': cluster.token}
    const board = await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards`, {slug: 'rides', title: 'Rides'}, admin)
    expect(board.status).toBe(201)
    expect(board.body.board.effective_props).toEqual({lang: 'fr', where: {lat: 48.85, lon: 2.35}})
    const memberCreate = await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards`, {title: 'x'}, member)
    expect(memberCreate.status).toBe(401)
    const post = await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards/rides/posts?agent=ann`, {title: 'Lift', body: 'to Lyon', ttl: '24h'}, member)
    expect(post.status).toBe(201)
    expect((await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards/rides/posts`, undefined, member)).body.count).toBe(1)
    expect((await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards`)).status).toBe(404)
    expect((await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards/rides/posts`)).status).toBe(404)
    // The relay's own routes still answer.
    expect((await api(relay.url, 'GET', '/v1/clusters')).status).toBe(200)
  })

  it('follows a PATCH of the cluster props: inherited values change for every board', async () => {
    await start()
    const cluster = await createCluster(relay.url, {visibility: 'public', name: 'Night owls'})
    await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards`, {slug: 'talk', title: 'Talk'}, {'x-cluster-token': cluster.admin_token})
    expect((await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards/talk/posts`)).status).toBe(200)
    const patched = await api(relay.url, 'PATCH', `/v1/clusters/${cluster.cluster_id}`, {props: {age_min: 18}}, {'x-cluster-token': cluster.admin_token})
    expect(patched.status).toBe(200)
    const gated = await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards/talk/posts`)
    expect(gated.status).toBe(403)
    expect(gated.body.error.code).toBe('age_gated')
    expect((await api(relay.url, 'GET', `/v1/clusters/night-owls/boards/talk/posts?adult=1`)).status).toBe(200)
  })

  it('resolves #board-slug and #post-id on the wall into board and ref', async () => {
    await start()
    const cluster = await createCluster(relay.url, {visibility: 'public', name: 'Tagged'})
    await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards`, {slug: 'lost-found', title: 'Lost and found'}, {'x-cluster-token': cluster.admin_token})
    const post = await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards/lost-found/posts?agent=ann`, {title: 'Keys', body: 'found', ttl: '7d'})
    const postId = post.body.post.post_id as string
    const ann = await join(relay.url, cluster.cluster_id, {agent: 'ann'})
    const bob = await join(relay.url, cluster.cluster_id, {agent: 'bob'})
    ann.send(`mine! #${postId} (see #Lost-Found)`)
    const tagged = await bob.next((f) => f.type === 'message')
    expect(tagged).toMatchObject({from: 'ann', board: 'lost-found', ref: postId})
    ann.send({payload: {text: 'no such #board here'}})
    const plain = await bob.next((f) => f.type === 'message' && typeof f.payload === 'object')
    expect(plain).not.toHaveProperty('board')
    expect(plain).not.toHaveProperty('ref')
    await ann.close()
    await bob.close()
  })

  it('wipes boards and posts when the cluster is deleted', async () => {
    await start()
    const cluster = await createCluster(relay.url, {visibility: 'public', name: 'Doomed', persist: true})
    await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards`, {slug: 'b', title: 'B'}, {'x-cluster-token': cluster.admin_token})
    await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards/b/posts?agent=ann`, {title: 't', body: 'b', ttl: 'forever'})
    const deleted = await api(relay.url, 'DELETE', `/v1/clusters/${cluster.cluster_id}`, undefined, {'x-cluster-token': cluster.admin_token})
    expect(deleted.status).toBe(200)
    expect(await boardStore.listBoards(cluster.cluster_id)).toEqual([])
    expect((await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards`)).status).toBe(404)
  })
})
