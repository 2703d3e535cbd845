import {afterEach, describe, expect, it} from 'vitest'
import {createSqliteBoardStore} from '../../../src/cluster/boards/sqlite.js'
import {createMemoryClusterStore} from '../../../src/cluster/store/store.js'
import {openSqlite} from '../../../src/store/sqlite.js'
import type {SqliteDatabase} from '../../../src/store/sqlite.js'
import {createBoard, createPost, makeWorld, type World} from './support.js'

describe('persistence per cluster (restart = a new part over the same database)', () => {
  let db: SqliteDatabase
  const worlds: World[] = []
  const clusterStore = createMemoryClusterStore()
  const node = () => {
    const world = makeWorld({boardStore: createSqliteBoardStore(db), clusterStore})
    worlds.push(world)
    return world
  }
  afterEach(async () => {
    for (const world of worlds.splice(0)) await world.close()
    db?.close()
  })

  it('keeps boards always, and posts only of clusters with persist: true', async () => {
    db = openSqlite()
    const before = node()
    const kept = await before.addCluster({visibility: 'public', persist: true})
    const fleeting = await before.addCluster({visibility: 'public', persist: false})
    await createBoard(before, kept, {slug: 'b', title: 'B'})
    await createBoard(before, fleeting, {slug: 'b', title: 'B'})
    const stays = await createPost(before, kept, 'b', {title: 'stays'})
    const goes = await createPost(before, fleeting, 'b', {title: 'goes'})
    expect((await before.http().get(`/v1/clusters/${fleeting.id}/boards/b/posts`)).body.count).toBe(1)

    const after = node()
    const keptPosts = await after.http().get(`/v1/clusters/${kept.id}/boards/b/posts`)
    expect(keptPosts.body.posts).toEqual([stays.post])
    const fleetingPosts = await after.http().get(`/v1/clusters/${fleeting.id}/boards/b/posts`)
    expect(fleetingPosts.status).toBe(200)
    expect(fleetingPosts.body.posts).toEqual([])
    expect((await after.http().get(`/v1/clusters/${fleeting.id}/boards/b/posts/${goes.post.post_id}`)).status).toBe(404)
    // The delete token of a persisted post still works after the restart.
    const deleted = await after.http().delete(`/v1/clusters/${kept.id}/boards/b/posts/${stays.post.post_id}`).set('x-delete-token', stays.delete_token)
    expect(deleted.status).toBe(200)
  })

  it('still reads posts written before persist was switched, until the process ends', async () => {
    db = openSqlite()
    const world = node()
    const cluster = await world.addCluster({visibility: 'public', persist: false})
    await createBoard(world, cluster, {slug: 'b', title: 'B'})
    const early = await createPost(world, cluster, 'b', {title: 'early'})
    await clusterStore.updateCluster(cluster.id, {persist: true})
    world.advance(1)
    await createPost(world, cluster, 'b', {title: 'late'})
    const both = await world.http().get(`/v1/clusters/${cluster.id}/boards/b/posts`)
    expect(both.body.posts.map((p: {title: string}) => p.title)).toEqual(['late', 'early'])
    expect(await world.part.resolveTags(cluster.id, `see #${early.post.post_id}`)).toEqual({ref: early.post.post_id})
    const restarted = node()
    const after = await restarted.http().get(`/v1/clusters/${cluster.id}/boards/b/posts`)
    expect(after.body.posts.map((p: {title: string}) => p.title)).toEqual(['late'])
  })
})
