import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createClusterAccess} from '../../src/cluster/access.js'
import {createPublicClusterView, type PublicClusterView} from '../../src/cluster/public-view.js'
import type {MemberVis} from '../../src/cluster/types.js'
import {createBoard, createPost, makeWorld, T0, type TestCluster, type World} from './boards/support.js'

const NODE = 'node-a'

describe('createPublicClusterView', () => {
  let world: World
  let view: PublicClusterView
  let socket = 0
  const join = (cluster: TestCluster, agent: string, vis: MemberVis, node = NODE) =>
    world.clusterStore.addPresence({cluster_id: cluster.id, node_id: node, socket_id: `s${++socket}`, agent, did: null, vis, joined_at: T0 + socket})

  beforeEach(async () => {
    world = makeWorld()
    await world.clusterStore.touchNode(NODE, T0)
    view = createPublicClusterView({store: world.clusterStore, hub: {aliveSince: () => T0 - 1000}, clusters: createClusterAccess({store: world.clusterStore}), boards: world.part, publicUrl: 'https://relay.example'})
  })
  afterEach(() => world.close())

  it('lists public clusters only, with where and an online count without ghosts', async () => {
    const open = await world.addCluster({visibility: 'public', name: 'open-air', props: {where: {lat: 52.5, lon: 13.4, label: 'Berlin'}}})
    const plain = await world.addCluster({visibility: 'public', name: 'plain'})
    const hidden = await world.addCluster({visibility: 'private', name: 'hidden'})
    await join(open, 'ann', 'public')
    await join(open, 'bob', 'private')
    await join(open, 'ghosty', 'ghost')
    await join(hidden, 'eve', 'public')

    const {clusters, count} = await view.catalog({limit: 50, offset: 0})
    expect(count).toBe(2)
    const ids = clusters.map((c) => c.id)
    expect(ids).toEqual(expect.arrayContaining([open.id, plain.id]))
    expect(ids).not.toContain(hidden.id)
    const openItem = clusters.find((c) => c.id === open.id)!
    expect(openItem).toMatchObject({name: 'open-air', online: 2, where: {lat: 52.5, lon: 13.4, label: 'Berlin'}})
    expect(clusters.find((c) => c.id === plain.id)).toMatchObject({online: 0, where: null})
  })

  it('pages the catalog', async () => {
    for (let i = 0; i < 5; i++) await world.addCluster({visibility: 'public', name: `c-${i}`})
    const first = await view.catalog({limit: 2, offset: 0})
    const last = await view.catalog({limit: 2, offset: 4})
    expect(first.count).toBe(5)
    expect(first.clusters).toHaveLength(2)
    expect(last.clusters).toHaveLength(1)
    expect(new Set([...first.clusters, ...last.clusters].map((c) => c.id)).size).toBe(3)
  })

  it('answers null for private and unknown clusters alike', async () => {
    const hidden = await world.addCluster({visibility: 'private', name: 'hidden'})
    expect(await view.cluster(hidden.id, {postsPerBoard: 5})).toBeNull()
    expect(await view.cluster('hidden', {postsPerBoard: 5})).toBeNull()
    expect(await view.cluster('c_nosuchclusterxxxxxxxxxx', {postsPerBoard: 5})).toBeNull()
    expect(await view.cluster('no-such-slug', {postsPerBoard: 5})).toBeNull()
  })

  it('masks private-vis handles, leaves ghosts out, finds a cluster by slug', async () => {
    const open = await world.addCluster({visibility: 'public', name: 'open-air'})
    await join(open, 'ann', 'public')
    await join(open, 'bob', 'private')
    await join(open, 'ghosty', 'ghost')
    const page = await view.cluster('open-air', {postsPerBoard: 5})
    expect(page?.cluster.id).toBe(open.id)
    expect(page?.cluster.members).toEqual([
      {agent: 'ann', did: null},
      {agent: 'member #2', did: null},
    ])
    expect(page?.cluster.online).toBe(2)
    expect(JSON.stringify(page)).not.toContain('ghosty')
    expect(JSON.stringify(page)).not.toContain('bob')
    expect(page?.cluster.ws).toBe(`wss://relay.example/v1/clusters/${open.id}/ws`)
  })

  it('lists boards with their newest posts, withholds the posts of an age-gated board', async () => {
    const open = await world.addCluster({visibility: 'public', name: 'open-air'})
    const rides = await createBoard(world, open, {slug: 'rides', title: 'Rides'})
    const adult = await createBoard(world, open, {slug: 'late', title: 'Late night', props: {age_min: 18}})
    for (let i = 0; i < 4; i++) {
      await createPost(world, open, rides.slug, {title: `ride ${i}`, props: {where: {lat: 48.1, lon: 11.6}}})
      world.advance(1000)
    }
    await createPost(world, open, adult.slug, {title: 'secret adult post', body: 'never shown'})

    const page = await view.cluster(open.id, {postsPerBoard: 3})
    const byslug = new Map(page!.boards.map((b) => [b.board.slug, b]))
    const ridesBoard = byslug.get('rides')!
    expect(ridesBoard.posts?.map((p) => p.title)).toEqual(['ride 3', 'ride 2', 'ride 1'])
    expect(ridesBoard.more).toBe(true)
    expect(ridesBoard.posts?.[0].effective_props.where).toEqual({lat: 48.1, lon: 11.6})
    const lateBoard = byslug.get('late')!
    expect(lateBoard.board.age_gated).toBe(true)
    expect(lateBoard.posts).toBeNull()
    expect(JSON.stringify(page)).not.toContain('secret adult post')
  })

  it('shows no boards without a boards part', async () => {
    const open = await world.addCluster({visibility: 'public', name: 'open-air'})
    await createBoard(world, open, {slug: 'rides', title: 'Rides'})
    const bare = createPublicClusterView({store: world.clusterStore, hub: {aliveSince: () => 0}, clusters: createClusterAccess({store: world.clusterStore})})
    const page = await bare.cluster(open.id, {postsPerBoard: 3})
    expect(page?.boards).toEqual([])
    expect(page?.cluster.ws).toBe(`/v1/clusters/${open.id}/ws`)
  })
})

describe('createPublicClusterView post budget', () => {
  it('shares maxPosts among boards, at least one each, and skips boards once it is spent', async () => {
    const world = makeWorld()
    try {
      const view = createPublicClusterView({store: world.clusterStore, hub: {aliveSince: () => 0}, clusters: createClusterAccess({store: world.clusterStore}), boards: world.part})
      const open = await world.addCluster({visibility: 'public', name: 'busy'})
      for (const slug of ['a', 'b', 'c', 'd']) {
        await createBoard(world, open, {slug, title: slug.toUpperCase()})
        world.advance(1000)
        for (let i = 0; i < 3; i++) await createPost(world, open, slug, {title: `${slug}${i}`})
      }
      const shared = await view.cluster(open.id, {postsPerBoard: 10, maxPosts: 8})
      expect(shared!.boards.map((b) => b.posts?.length)).toEqual([2, 2, 2, 2])
      expect(shared!.boards.every((b) => b.more && !b.skipped)).toBe(true)
      const tight = await view.cluster(open.id, {postsPerBoard: 10, maxPosts: 2})
      expect(tight!.boards.map((b) => [b.posts?.length, b.skipped])).toEqual([
        [1, false],
        [1, false],
        [0, true],
        [0, true],
      ])
      const firstTwo = await view.cluster(open.id, {postsPerBoard: 10, maxPosts: 100, boardsWithPosts: 2})
      expect(firstTwo!.boards.map((b) => [b.board.slug, b.posts?.length, b.skipped])).toEqual([
        ['a', 3, false],
        ['b', 3, false],
        ['c', 0, true],
        ['d', 0, true],
      ])
    } finally {
      await world.close()
    }
  })
})
