import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {extractTags} from '../../../src/cluster/boards/tags.js'
import {createBoard, createPost, DAY, makeWorld, type TestCluster, type World} from './support.js'

describe('extractTags', () => {
  it('finds tags in order, after start or a separator, without trailing dashes', () => {
    expect(extractTags('#rides need a lift, see #p_abc and (#lost-found)')).toEqual(['rides', 'p_abc', 'lost-found'])
    expect(extractTags('ends with #rides-.')).toEqual(['rides'])
    expect(extractTags('#Fahrräder und #café')).toEqual(['Fahrräder', 'café'])
  })
  it('ignores anchors in URLs, doubled hashes and a bare #', () => {
    expect(extractTags('https://x.dev/page#rides a#b ##rides # alone')).toEqual([])
  })
  it('looks at no more than 16 candidates', () => {
    expect(extractTags(Array.from({length: 40}, (_, i) => `#t${i}`).join(' '))).toHaveLength(16)
  })
})

describe('resolveTags', () => {
  let world: World
  let cluster: TestCluster
  let other: TestCluster
  beforeEach(async () => {
    world = makeWorld()
    cluster = await world.addCluster()
    other = await world.addCluster()
    await createBoard(world, cluster, {slug: 'rides', title: 'Rides'})
    await createBoard(world, cluster, {slug: 'lost-found', title: 'Lost and found'})
    await createBoard(world, other, {slug: 'elsewhere', title: 'Elsewhere'})
  })
  afterEach(() => world.close())

  it('resolves the first #slug naming a board of the cluster into board (the slug)', async () => {
    expect(await world.part.resolveTags(cluster.id, 'anyone #going to #lost-found or #rides?')).toEqual({board: 'lost-found'})
    expect(await world.part.resolveTags(cluster.id, 'case does not matter: #RIDES')).toEqual({board: 'rides'})
    expect(await world.part.resolveTags(cluster.id, 'no tags here')).toEqual({})
    expect(await world.part.resolveTags(cluster.id, '#elsewhere is another cluster’s board')).toEqual({})
    expect(await world.part.resolveTags(cluster.id, 'a url https://x.dev/#rides is no tag')).toEqual({})
  })

  it('resolves the first #p_… naming a live post of the cluster into ref', async () => {
    const {post} = await createPost(world, cluster, 'rides', {ttl: '24h'})
    const foreign = await createPost(world, other, 'elsewhere', {})
    const text = `re #${foreign.post.post_id} and #p_aaaaaaaaaaaaaaaaaaaaaaaaaa then #${post.post_id} on #rides`
    expect(await world.part.resolveTags(cluster.id, text)).toEqual({board: 'rides', ref: post.post_id})
    expect(await world.part.resolveTags(cluster.id, `#${post.post_id}`)).toEqual({ref: post.post_id})
    world.advance(DAY)
    expect(await world.part.resolveTags(cluster.id, `#${post.post_id}`)).toEqual({})
  })

  it('resolves to nothing (never throws) when the cluster is unknown', async () => {
    expect(await world.part.resolveTags('c_unknownunknownunknown', '#rides')).toEqual({})
  })

  it('answers {} instead of failing when the store fails', async () => {
    const broken = makeWorld()
    broken.boardStore.listBoards = async () => {
      throw new Error('database down')
    }
    expect(await broken.part.resolveTags(cluster.id, '#rides')).toEqual({})
    await broken.close()
  })
})
