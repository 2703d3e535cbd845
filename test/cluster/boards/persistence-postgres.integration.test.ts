import {afterAll, describe, expect, it} from 'vitest'
import {createPostgresBoardStore} from '../../../src/cluster/boards/postgres.js'
import {createMemoryClusterStore} from '../../../src/cluster/store/store.js'
import {openPostgres} from '../../../src/store/postgres.js'
import {PG_URL, dropSchema, uniqueSchema} from '../../support/backends.js'
import {createBoard, createPost, makeWorld} from './support.js'

const schema = uniqueSchema('boardsnodes')
afterAll(() => dropSchema(schema))

describe('boards on PostgreSQL', () => {
  it('two relay nodes on one database see the same boards and persisted posts; a restart keeps them', async () => {
    const pools = await Promise.all([openPostgres({url: PG_URL, schema}), openPostgres({url: PG_URL, schema})])
    const [storeA, storeB] = await Promise.all(pools.map((pool) => createPostgresBoardStore(pool)))
    const clusterStore = createMemoryClusterStore()
    const a = makeWorld({boardStore: storeA, clusterStore})
    const b = makeWorld({boardStore: storeB, clusterStore, limits: {postsPerBoard: 2}})
    const cluster = await a.addCluster({persist: true})
    await createBoard(a, cluster, {slug: 'rides', title: 'Rides', props: {lang: 'de'}})
    const first = await createPost(a, cluster, 'rides', {title: 'from a'})
    b.now = a.now + 1
    await createPost(b, cluster, 'rides', {title: 'from b'})
    b.advance(1)
    // Node b's cap of 2 drops node a's older post.
    await createPost(b, cluster, 'rides', {title: 'from b again'})
    const listed = await a.http().get(`/v1/clusters/${cluster.id}/boards/rides/posts`).query({lang: 'de'}).set('x-cluster-token', cluster.token)
    expect(listed.body.posts.map((p: {title: string}) => p.title)).toEqual(['from b again', 'from b'])
    expect(await b.part.resolveTags(cluster.id, '#Rides please')).toEqual({board: 'rides'})
    expect(await b.part.resolveTags(cluster.id, `#${first.post.post_id}`)).toEqual({})
    await Promise.all([a.close(), b.close(), ...pools.map((pool) => pool.end())])

    const pool = await openPostgres({url: PG_URL, schema})
    const restarted = makeWorld({boardStore: await createPostgresBoardStore(pool), clusterStore})
    restarted.now = b.now
    const again = await restarted.http().get(`/v1/clusters/${cluster.id}/boards/rides/posts`).set('x-cluster-token', cluster.token)
    expect(again.body.count).toBe(2)
    await restarted.part.onClusterDeleted(cluster.id)
    expect((await pool.query('SELECT count(*)::int AS n FROM cluster_board_posts')).rows[0].n).toBe(0)
    await restarted.close()
    await pool.end()
  })
})
