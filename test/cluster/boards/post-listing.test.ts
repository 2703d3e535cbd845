import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createBoard, createPost, DAY, HOUR, makeWorld, type TestCluster, type World} from './support.js'

const PARIS = {lat: 48.8566, lon: 2.3522, label: 'Paris'}
const LYON = {lat: 45.764, lon: 4.8357, label: 'Lyon'}
const BERLIN = {lat: 52.52, lon: 13.405, label: 'Berlin'}

describe('GET …/posts', () => {
  let world: World
  let cluster: TestCluster
  const list = (query: Record<string, string> = {}, board = 'rides') =>
    world.http().get(`/v1/clusters/${cluster.id}/boards/${board}/posts`).query(query).set('x-cluster-token', cluster.token)
  const titles = (res: {body: {posts: Array<{title: string}>}}) => res.body.posts.map((p) => p.title)
  beforeEach(async () => {
    world = makeWorld()
    // The cluster sits in Paris and speaks French unless a board or post says otherwise.
    cluster = await world.addCluster({props: {where: PARIS, lang: 'fr'}})
    await createBoard(world, cluster, {slug: 'rides', title: 'Rides'})
  })
  afterEach(() => world.close())

  it('lists live posts newest first with {posts, count, next_cursor}', async () => {
    for (const title of ['one', 'two', 'three']) {
      await createPost(world, cluster, 'rides', {title})
      world.advance(1000)
    }
    const res = await list()
    expect(res.status).toBe(200)
    expect(titles(res)).toEqual(['three', 'two', 'one'])
    expect(res.body.count).toBe(3)
    expect(res.body.next_cursor).toBeNull()
    expect(res.body.posts[0]).not.toHaveProperty('distance_km')
    expect(res.body.posts[0].body).toBe('text')
  })

  it('pages with limit and cursor, and refuses a forged cursor', async () => {
    for (let i = 1; i <= 5; i++) {
      await createPost(world, cluster, 'rides', {title: `p${i}`})
      world.advance(1000)
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res = await list(cursor ? {limit: '2', cursor} : {limit: '2'})
      expect(res.status).toBe(200)
      seen.push(...titles(res))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(seen).toEqual(['p5', 'p4', 'p3', 'p2', 'p1'])
    for (const bad of ['garbage', Buffer.from('["x",1,"p"]').toString('base64url')]) {
      const res = await list({cursor: bad})
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({code: 'invalid_cursor', field: 'cursor'})
    }
    for (const limit of ['0', '101', 'ten']) {
      const res = await list({limit})
      expect(res.status, limit).toBe(400)
      expect(res.body.error.field).toBe('limit')
    }
  })

  it('inherits where from the cluster: near/km filter on effective where, nearest first, with distance_km', async () => {
    await createPost(world, cluster, 'rides', {title: 'in paris'}) // inherits Paris
    await createPost(world, cluster, 'rides', {title: 'in lyon', props: {where: LYON}})
    await createPost(world, cluster, 'rides', {title: 'in berlin', props: {where: BERLIN}})
    const near = await list({near: '45.76,4.84'})
    expect(titles(near)).toEqual(['in lyon', 'in paris', 'in berlin'])
    expect(near.body.posts[0].distance_km).toBeLessThan(1)
    expect(near.body.posts[1].distance_km).toBeGreaterThan(380)
    expect(near.body.posts[1].distance_km).toBeLessThan(400)
    expect(near.body.posts[1].effective_props.where).toEqual(PARIS)
    const within = await list({near: '48.85,2.35', km: '500'})
    expect(titles(within)).toEqual(['in paris', 'in lyon'])
    const tight = await list({near: '48.85,2.35', km: '5'})
    expect(titles(tight)).toEqual(['in paris'])
  })

  it('leaves out posts with no effective where when near is given', async () => {
    const bare = await world.addCluster({})
    await createBoard(world, bare, {slug: 'b', title: 'B'})
    await createPost(world, bare, 'b', {title: 'nowhere'})
    await createPost(world, bare, 'b', {title: 'lyon', props: {where: LYON}})
    const res = await world.http().get(`/v1/clusters/${bare.id}/boards/b/posts`).query({near: '0,0'}).set('x-cluster-token', bare.token)
    expect(titles(res)).toEqual(['lyon'])
  })

  it('pages a near listing by distance', async () => {
    await createPost(world, cluster, 'rides', {title: 'paris'})
    await createPost(world, cluster, 'rides', {title: 'lyon', props: {where: LYON}})
    await createPost(world, cluster, 'rides', {title: 'berlin', props: {where: BERLIN}})
    const first = await list({near: '45.76,4.84', limit: '2'})
    expect(titles(first)).toEqual(['lyon', 'paris'])
    const second = await list({near: '45.76,4.84', limit: '2', cursor: first.body.next_cursor})
    expect(titles(second)).toEqual(['berlin'])
    expect(second.body.next_cursor).toBeNull()
    // A cursor of a time-ordered listing does not fit a near listing.
    await createPost(world, cluster, 'rides', {title: 'x'})
    const timed = await list({limit: '1'})
    const mixed = await list({near: '0,0', cursor: timed.body.next_cursor})
    expect(mixed.status).toBe(400)
    expect(mixed.body.error.code).toBe('invalid_cursor')
  })

  it('validates near and km: 400 with code and field', async () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{near: 'paris'}, 'invalid_query', 'near'],
      [{near: '48.8'}, 'invalid_query', 'near'],
      [{near: '91,0'}, 'invalid_near', 'near'],
      [{near: '0,-181'}, 'invalid_near', 'near'],
      [{km: '5'}, 'km_without_near', 'km'],
      [{near: '0,0', km: '0'}, 'invalid_km', 'km'],
      [{near: '0,0', km: '20041'}, 'invalid_km', 'km'],
      [{near: '0,0', km: '-1'}, 'invalid_query', 'km'],
      [{near: '0,0', km: 'far'}, 'invalid_query', 'km'],
      [{lang: 'english!'}, 'invalid_query', 'lang'],
      [{adult: 'yes'}, 'invalid_query', 'adult'],
    ]
    for (const [query, code, field] of cases) {
      const res = await list(query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body.error, JSON.stringify(query)).toMatchObject({code, field})
    }
    // The sentence says what is expected, not the schema's regex.
    expect((await list({near: 'paris'})).body.error.message).toBe('near must be <lat>,<lon> in degrees, e.g. near=52.52,13.40')
    expect((await list({limit: '1.5'})).body.error).toMatchObject({code: 'invalid_query', field: 'limit', message: 'limit must be a whole number from 1 to 100'})
    expect((await list({lang: 'english!'})).body.error.message).not.toMatch(/pattern/)
    const repeated = await world.http().get(`/v1/clusters/${cluster.id}/boards/rides/posts?near=0,0&near=1,1`).set('x-cluster-token', cluster.token)
    expect(repeated.status).toBe(400)
  })

  it('filters on the effective lang: inherited from the cluster, a primary tag matches its regions', async () => {
    await createPost(world, cluster, 'rides', {title: 'french by default'})
    world.advance(1)
    await createPost(world, cluster, 'rides', {title: 'british', props: {lang: 'en-GB'}})
    world.advance(1)
    await createPost(world, cluster, 'rides', {title: 'english', props: {lang: 'en'}})
    expect(titles(await list({lang: 'fr'}))).toEqual(['french by default'])
    expect(titles(await list({lang: 'en'}))).toEqual(['english', 'british'])
    expect(titles(await list({lang: 'EN-gb'}))).toEqual(['british'])
    expect(titles(await list({lang: 'de'}))).toEqual([])
  })

  it('combines lang and near filters', async () => {
    await createPost(world, cluster, 'rides', {title: 'fr lyon', props: {where: LYON}})
    await createPost(world, cluster, 'rides', {title: 'de berlin', props: {where: BERLIN, lang: 'de'}})
    await createPost(world, cluster, 'rides', {title: 'de lyon', props: {where: LYON, lang: 'de'}})
    expect(titles(await list({lang: 'de', near: '45.76,4.84', km: '50'}))).toEqual(['de lyon'])
  })

  describe('age gate', () => {
    it('refuses posts of a board with age_min ≥ 18 without adult=1 → 403 age_gated', async () => {
      await createBoard(world, cluster, {slug: 'night', title: 'Night', props: {age_min: 18}})
      const {post} = await createPost(world, cluster, 'night', {})
      const gated = await list({}, 'night')
      expect(gated.status).toBe(403)
      expect(gated.body.error.code).toBe('age_gated')
      expect((await list({adult: '0'}, 'night')).status).toBe(403)
      const single = await world.http().get(`/v1/clusters/${cluster.id}/boards/night/posts/${post.post_id}`).set('x-cluster-token', cluster.token)
      expect(single.status).toBe(403)
      expect(single.body.error.code).toBe('age_gated')
      const adult = await list({adult: '1'}, 'night')
      expect(adult.status).toBe(200)
      expect(adult.body.count).toBe(1)
      const singleAdult = await world.http().get(`/v1/clusters/${cluster.id}/boards/night/posts/${post.post_id}`).query({adult: '1'}).set('x-cluster-token', cluster.token)
      expect(singleAdult.status).toBe(200)
      // The board itself (title, charter) stays readable so a reader can learn its rules.
      const board = await world.http().get(`/v1/clusters/${cluster.id}/boards/night`).set('x-cluster-token', cluster.token)
      expect(board.status).toBe(200)
      expect(board.body.board.age_gated).toBe(true)
    })

    it('gates every board of a cluster whose age_min is ≥ 18 (inherited)', async () => {
      const adultCluster = await world.addCluster({visibility: 'public', props: {age_min: 21}})
      await createBoard(world, adultCluster, {slug: 'b', title: 'B'})
      const res = await world.http().get(`/v1/clusters/${adultCluster.id}/boards/b/posts`)
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('age_gated')
      // The nearer level wins, so a board may lower what it inherits.
      await createBoard(world, adultCluster, {slug: 'kids', title: 'Kids', props: {age_min: 0}})
      expect((await world.http().get(`/v1/clusters/${adultCluster.id}/boards/kids/posts`)).status).toBe(200)
    })

    it('hides adult posts on an open board unless adult=1, and gates reading them one by one', async () => {
      await createPost(world, cluster, 'rides', {title: 'open'})
      world.advance(1)
      const {post} = await createPost(world, cluster, 'rides', {title: 'adult', props: {age_min: 18}})
      expect(titles(await list())).toEqual(['open'])
      expect(titles(await list({adult: 'true'}))).toEqual(['adult', 'open'])
      const single = await world.http().get(`/v1/clusters/${cluster.id}/boards/rides/posts/${post.post_id}`).set('x-cluster-token', cluster.token)
      expect(single.status).toBe(403)
    })
  })

  describe('ttl expiry', () => {
    it('drops a post from reads the moment it expires, and the purge reclaims it', async () => {
      await createPost(world, cluster, 'rides', {title: 'short', ttl: '24h'})
      await createPost(world, cluster, 'rides', {title: 'week', ttl: '7d'})
      await createPost(world, cluster, 'rides', {title: 'always', ttl: 'forever'})
      // All three at the same instant: the listing then orders them by id, so compare as sets.
      world.advance(DAY - 1)
      expect(titles(await list()).sort()).toEqual(['always', 'short', 'week'])
      world.advance(1)
      expect(titles(await list()).sort()).toEqual(['always', 'week'])
      expect(await world.part.purgeExpired()).toBe(1)
      world.advance(6 * DAY)
      expect(titles(await list())).toEqual(['always'])
      world.advance(10_000 * DAY)
      expect(titles(await list())).toEqual(['always'])
      expect(await world.part.purgeExpired()).toBe(1)
    })

    it('purges on its own timer without any read', async () => {
      const timed = makeWorld({limits: {purgeIntervalMs: 5}})
      const c = await timed.addCluster({persist: true})
      await createBoard(timed, c, {slug: 'b', title: 'B'})
      const {post} = await createPost(timed, c, 'b', {ttl: '24h'})
      timed.advance(DAY + HOUR)
      // Wait for the interval (real time) to run the purge; the store then no longer holds the row at any time.
      await expect.poll(async () => (await timed.boardStore.getPost(c.id, post.post_id, 0)) === null, {timeout: 2000, interval: 10}).toBe(true)
      await timed.close()
    })
  })

  it('keeps at most postsPerBoard live posts, dropping the oldest first', async () => {
    const capped = makeWorld({limits: {postsPerBoard: 3}})
    const c = await capped.addCluster({visibility: 'public'})
    await createBoard(capped, c, {slug: 'b', title: 'B'})
    await createBoard(capped, c, {slug: 'other', title: 'Other'})
    await createPost(capped, c, 'other', {title: 'elsewhere'})
    for (let i = 1; i <= 5; i++) {
      capped.advance(1000)
      await createPost(capped, c, 'b', {title: `p${i}`})
    }
    const res = await capped.http().get(`/v1/clusters/${c.id}/boards/b/posts`)
    expect(titles(res)).toEqual(['p5', 'p4', 'p3'])
    const other = await capped.http().get(`/v1/clusters/${c.id}/boards/other/posts`)
    expect(titles(other)).toEqual(['elsewhere'])
    await capped.close()
  })
})
