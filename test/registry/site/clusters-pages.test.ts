import type {Server} from 'node:http'
import Koa from 'koa'
import request from 'supertest'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createClusterAccess} from '../../../src/cluster/access.js'
import {createPublicClusterView, type PublicClusterView} from '../../../src/cluster/public-view.js'
import {hashToken} from '../../../src/cluster/tokens.js'
import type {MemberVis} from '../../../src/cluster/types.js'
import {createEventStreamHub} from '../../../src/http/sse.js'
import {createSiteAssets} from '../../../src/registry/site/assets.js'
import {CATALOG_PAGE_SIZE} from '../../../src/registry/site/clusters/constants.js'
import {createWorldMap, type WorldMap} from '../../../src/registry/site/clusters/map.js'
import {clusterRoutes} from '../../../src/registry/site/clusters/routes.js'
import {createBoard, createPost, makeWorld, T0, type TestCluster, type World} from '../../cluster/boards/support.js'

const NODE = 'node-a'
const MAX_PAGE_BYTES = 200 * 1024
const map: WorldMap = createWorldMap()

describe('clusters pages', () => {
  let world: World
  let view: PublicClusterView
  let http: () => ReturnType<typeof request>
  let socket = 0
  const join = (cluster: TestCluster, agent: string, vis: MemberVis) =>
    world.clusterStore.addPresence({cluster_id: cluster.id, node_id: NODE, socket_id: `s${++socket}`, agent, did: null, vis, joined_at: T0 + socket})

  const app = (clusters: PublicClusterView | undefined) => {
    const assets = createSiteAssets()
    const landUrl = assets.add('world.svg', map.svg)
    const koa = new Koa()
    koa.use(clusterRoutes({assets, view: clusters, hub: createEventStreamHub({max: 4, keepaliveMs: 60_000, retryMs: 1000}), map, landUrl, clock: () => world.now}))
    const handler = koa.callback()
    return () => request(handler as unknown as Server)
  }

  beforeEach(async () => {
    world = makeWorld()
    await world.clusterStore.touchNode(NODE, T0)
    view = createPublicClusterView({store: world.clusterStore, hub: {aliveSince: () => T0 - 1000}, clusters: createClusterAccess({store: world.clusterStore}), boards: world.part})
    http = app(view)
  })
  afterEach(() => world.close())

  it('lists public clusters with topic, description, where and an online count hook; no private ones', async () => {
    const open = await world.addCluster({visibility: 'public', name: 'open-air', props: {where: {lat: 52.52, lon: 13.4, label: 'Berlin'}}})
    await world.clusterStore.updateCluster(open.id, {topic: 'rides to the lake', description: 'D'.repeat(5000)})
    await world.addCluster({visibility: 'private', name: 'hidden-room'})
    await join(open, 'ann', 'public')
    await join(open, 'ghosty', 'ghost')
    const res = await http().get('/clusters').set('accept', 'text/html')
    expect(res.status).toBe(200)
    expect(res.headers['content-security-policy']).toContain("script-src 'self'")
    expect(res.text).toContain('href="/clusters/open-air"')
    expect(res.text).toContain('rides to the lake')
    expect(res.text).toContain('Berlin')
    expect(res.text).toContain(`data-cluster-id="${open.id}" data-online="1"`)
    expect(res.text).not.toContain('hidden-room')
    expect(res.text).not.toContain('D'.repeat(300))
    expect(res.text).toMatch(/<svg class="world-map"[^>]*role="group"[^>]*aria-labelledby="clusters-map-title"/)
    expect(res.text).toMatch(/<image href="\/site\/world\.[0-9a-f]{12}\.svg"/)
  })

  it('pages the catalog 50 at a time and stays small with 500 clusters', async () => {
    for (let i = 0; i < 500; i++) {
      const c = await world.addCluster({visibility: 'public', name: `cluster-${i}`, props: {where: {lat: (i % 160) - 80, lon: (i % 360) - 180, label: `place ${i}`}}})
      await world.clusterStore.updateCluster(c.id, {topic: 'T'.repeat(200), description: 'D'.repeat(2000)})
    }
    const first = await http().get('/clusters')
    expect(first.status).toBe(200)
    expect(first.text.match(/<tr data-cluster-id=/g)).toHaveLength(CATALOG_PAGE_SIZE)
    expect(first.text).toContain('href="/clusters?offset=50"')
    expect(first.text).toContain('Page 1 of 10')
    const last = await http().get('/clusters?offset=450')
    expect(last.text.match(/<tr data-cluster-id=/g)).toHaveLength(50)
    expect(last.text).toContain('href="/clusters?offset=400"')
    expect(last.text).not.toContain('rel="next"')
    const bytes = Buffer.byteLength(first.text)
    console.log(`catalog page with 500 public clusters: ${bytes} bytes`)
    expect(bytes).toBeLessThan(MAX_PAGE_BYTES)
    expect((await http().get('/clusters?offset=abc')).status).toBe(400)
    expect((await http().get('/clusters?offset=-1')).text).toContain('whole number')
  })

  it('shows a cluster with masked members, no ghosts, boards with posts, an age-gated notice without posts', async () => {
    const open = await world.addCluster({visibility: 'public', name: 'open-air', props: {where: {lat: 48.14, lon: 11.58, label: 'Munich'}}})
    await join(open, 'ann', 'public')
    await join(open, 'bob-secret', 'private')
    await join(open, 'ghost-walker', 'ghost')
    const rides = await createBoard(world, open, {slug: 'rides', title: 'Rides'})
    const late = await createBoard(world, open, {slug: 'late', title: 'Late night', props: {age_min: 18}})
    await createPost(world, open, rides.slug, {title: 'Lift to Berlin', body: 'Leaving at noon', props: {where: {lat: 52.52, lon: 13.4, label: 'Berlin Hbf'}}}, 'carol')
    await createPost(world, open, rides.slug, {title: 'Inherited place', body: 'no own where'}, 'dave')
    await createPost(world, open, late.slug, {title: 'adult only text', body: 'never on the page'})

    const res = await http().get(`/clusters/${open.id}`)
    expect(res.status).toBe(200)
    const page = res.text
    expect(page).toContain('<li>ann</li>')
    expect(page).toContain('<li>member #2</li>')
    expect(page).not.toContain('bob-secret')
    expect(page).not.toContain('ghost-walker')
    expect(page).toContain(`data-cluster-id="${open.id}" data-online="2"`)
    expect(page).toContain('Lift to Berlin')
    expect(page).toContain('Leaving at noon')
    expect(page).toContain('by <span class="author">carol</span> · <span class="where">Berlin Hbf</span>')
    // The post without a where shows the cluster's (its effective where).
    expect(page).toContain('<span class="where">Munich</span>')
    expect(page).toContain('Late night')
    expect(page).toMatch(/class="notice age-gated">This board is for adults/)
    expect(page).not.toContain('adult only text')
    expect(page).not.toContain('never on the page')
    expect(page.match(/<circle class="point"/g)).toHaveLength(2)
    expect((await http().get('/clusters/open-air')).status).toBe(200)
  })

  it('links a cluster whose slug is a route of the area (events) by its id', async () => {
    const c = await world.addCluster({visibility: 'public', name: 'events'})
    const page = (await http().get('/clusters')).text
    expect(page).toContain(`href="/clusters/${c.id}"`)
    expect((await http().get(`/clusters/${c.id}`)).status).toBe(200)
  })

  it('answers private and unknown clusters with the same readable 404', async () => {
    const hidden = await world.addCluster({visibility: 'private', name: 'hidden-room'})
    const privateRes = await http().get(`/clusters/${hidden.id}`)
    const unknownRes = await http().get('/clusters/c_AAAAAAAAAAAAAAAAAAAAAA')
    const badRes = await http().get('/clusters/%E0%A4%A')
    for (const res of [privateRes, unknownRes, badRes]) {
      expect(res.status).toBe(404)
      expect(res.type).toBe('text/html')
      expect(res.text).toContain('No such cluster')
    }
    expect(privateRes.text).not.toContain('hidden-room')
    expect(privateRes.text.replaceAll(hidden.id, 'ID')).toBe(unknownRes.text.replaceAll('c_AAAAAAAAAAAAAAAAAAAAAA', 'ID'))
  })

  it('renders hostile names, topics, descriptions and posts inert', async () => {
    const evil = '<script>alert(1)</script>\u202Eevil\u2066 <img src=x onerror=alert(2)>'
    const c = await world.addCluster({visibility: 'public', name: 'hostile', props: {where: {lat: 1, lon: 1, label: `<b>${evil}</b>`}}})
    await world.clusterStore.updateCluster(c.id, {topic: `javascript:alert(3) ${evil}`, description: evil})
    // The name is stored as given (a hostile creator's name).
    const record = (await world.clusterStore.getCluster(c.id))!
    await world.clusterStore.deleteCluster(c.id)
    await world.clusterStore.createCluster({...record, name: evil, slug: 'hostile', token_hash: hashToken(c.token), admin_token_hash: hashToken(c.admin)})
    const board = await createBoard(world, c, {slug: 'b', title: evil})
    await createPost(world, c, board.slug, {title: evil, body: `${evil} javascript:alert(4)`}, 'x<script>')
    const pages = [(await http().get('/clusters')).text, (await http().get('/clusters/hostile')).text]
    expect(pages[1]).toContain('javascript:alert(4)')
    expect(pages[1]).toContain('by <span class="author">x&lt;script&gt;</span>')
    for (const page of pages) {
      expect(page).not.toContain('<script>alert')
      expect(page).not.toContain('<img src=x')
      expect(page).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
      expect(page).not.toMatch(/href="javascript:/i)
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
      expect(page).toContain('evil')
      // Only the layout's own deferred scripts.
      expect(page.match(/<script/g)?.length).toBe((page.match(/<script defer src="\/site\//g) ?? []).length)
    }
  })

  it('keeps the catalog under 200 KB when every character of 50 clusters escapes to an entity', async () => {
    const q = (n: number) => '"'.repeat(n)
    for (let i = 0; i < 60; i++) {
      const c = await world.addCluster({visibility: 'public', name: `${q(96)}${i}`.slice(0, 100), props: {where: {lat: i, lon: i, label: q(500)}}})
      await world.clusterStore.updateCluster(c.id, {topic: q(200), description: q(2000)})
    }
    const page = (await http().get('/clusters')).text
    const bytes = Buffer.byteLength(page)
    console.log(`catalog page of 50 clusters with hostile text: ${bytes} bytes`)
    expect(bytes).toBeLessThan(MAX_PAGE_BYTES)
    expect(page).toContain('&quot;…')
  })

  it('keeps a cluster page under 200 KB at the relay\'s limits with text that escapes six times over', async () => {
    const big = makeWorld({limits: {postsPerIp: {limit: 1e6, windowMs: 60_000}, postsPerAgent: {limit: 1e6, windowMs: 60_000}}})
    try {
      await big.clusterStore.touchNode(NODE, T0)
      const q = (n: number) => '"'.repeat(n)
      const c = await big.addCluster({visibility: 'public', name: 'huge', props: {where: {lat: 1, lon: 2, label: q(200)}}})
      await big.clusterStore.updateCluster(c.id, {topic: q(200), description: q(2000)})
      for (let m = 0; m < 1000; m++) {
        await big.clusterStore.addPresence({cluster_id: c.id, node_id: NODE, socket_id: `m${m}`, agent: `${q(120)}${m}`, did: null, vis: m % 2 ? 'public' : 'private', joined_at: T0 + m})
      }
      for (let b = 0; b < 100; b++) {
        const board = await createBoard(big, c, {slug: `board-${b}`, title: q(200), props: {where: {lat: b - 50, lon: b, label: q(200)}}})
        big.advance(1000)
        if (b < 40) for (let i = 0; i < 3; i++) await createPost(big, c, board.slug, {title: q(200), body: q(16_000), props: {where: {lat: i, lon: b, label: q(200)}}}, q(120))
      }
      const bigView = createPublicClusterView({store: big.clusterStore, hub: {aliveSince: () => T0 - 1000}, clusters: createClusterAccess({store: big.clusterStore}), boards: big.part})
      const assets = createSiteAssets()
      const koa = new Koa()
      koa.use(clusterRoutes({assets, view: bigView, hub: createEventStreamHub({max: 1, keepaliveMs: 60_000, retryMs: 1000}), map, landUrl: assets.add('world.svg', map.svg), clock: () => big.now}))
      const res = await request(koa.callback() as unknown as Server).get('/clusters/huge')
      expect(res.status).toBe(200)
      const bytes = Buffer.byteLength(res.text)
      console.log(`cluster page at the limits (100 boards, 120 posts, 1000 members, hostile text): ${bytes} bytes`)
      expect(bytes).toBeLessThan(MAX_PAGE_BYTES)
      expect(res.text.match(/<article class="post"/g)).toHaveLength(24)
      expect(res.text).toContain('70 more boards')
      expect(res.text).toContain('and 950 more.')
      expect(res.text).toContain('not shown here, to keep the page small')
    } finally {
      await big.close()
    }
  })

  it('places map points where the projection puts them', async () => {
    const centre = map.project(0, 0)!
    expect(centre[0]).toBeCloseTo(map.width / 2, 0)
    expect(centre[1]).toBeCloseTo(map.height / 2, 0)
    await world.addCluster({visibility: 'public', name: 'east-north', props: {where: {lat: 60, lon: 100}}})
    await world.addCluster({visibility: 'public', name: 'west-south', props: {where: {lat: -30, lon: -60}}})
    const page = (await http().get('/clusters')).text
    const points = [...page.matchAll(/<a href="([^"]+)" aria-label="[^"]*"><circle class="point" cx="([\d.]+)" cy="([\d.]+)"/g)].map((m) => ({href: m[1], x: Number(m[2]), y: Number(m[3])}))
    const east = points.find((p) => p.href === '/clusters/east-north')!
    const west = points.find((p) => p.href === '/clusters/west-south')!
    expect(east.x).toBeGreaterThan(map.width / 2)
    expect(east.y).toBeLessThan(map.height / 2)
    expect(west.x).toBeLessThan(map.width / 2)
    expect(west.y).toBeGreaterThan(map.height / 2)
    expect([east.x, east.y]).toEqual(map.project(100, 60))
    expect(map.project(0, 95)).toBeNull()
  })

  it('the world map asset is small, has its own dark colours, and no script', () => {
    console.log(`world.svg: ${Buffer.byteLength(map.svg)} bytes, box ${map.width}×${map.height}`)
    expect(map.svg).toContain('prefers-color-scheme: dark')
    expect(map.svg).not.toContain('<script')
    expect(Buffer.byteLength(map.svg)).toBeLessThan(MAX_PAGE_BYTES)
  })

  it('says so when this node serves no relay', async () => {
    const bare = app(undefined)
    const res = await bare().get('/clusters')
    expect(res.status).toBe(200)
    expect(res.text).toContain('This node serves no relay')
    expect((await bare().get('/clusters/anything')).status).toBe(404)
    expect((await bare().get('/clusters/events')).status).toBe(404)
  })
})
