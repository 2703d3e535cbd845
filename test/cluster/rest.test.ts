import request from 'supertest'
import {describe, expect, it} from 'vitest'
import {createLocalBus} from '../../src/bus/bus.js'
import {createRelay} from '../../src/cluster/relay.js'
import {createMemoryClusterStore, type ClusterStore, type PresenceEntry} from '../../src/cluster/store/store.js'
import {hashToken} from '../../src/cluster/tokens.js'
import {noPublicReads} from './public-reads-stub.js'
import type {BoardsPart, RelayLimits} from '../../src/cluster/types.js'
import {createHostApp} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'

const NOW = Date.parse('2025-06-01T12:00:00.000Z')

function setup(options: {limits?: Partial<RelayLimits>; boards?: BoardsPart; clock?: () => number; store?: ClusterStore} = {}) {
  const store = options.store ?? createMemoryClusterStore()
  const bus = createLocalBus()
  const relay = createRelay({store, bus, logger: silentLogger, publicUrl: 'https://relay.example/', clock: options.clock ?? (() => NOW), ...options})
  const app = createHostApp({services: [relay], logger: silentLogger}).callback()
  return {store, bus, relay, app}
}

async function create(app: ReturnType<typeof setup>['app'], body: object = {}) {
  const res = await request(app).post('/v1/clusters').send(body)
  expect(res.status).toBe(201)
  return res.body as {cluster_id: string; token: string; admin_token: string; slug?: string}
}

async function present(store: ClusterStore, nodeId: string, entries: Array<Partial<PresenceEntry> & {cluster_id: string; agent: string}>) {
  await store.touchNode(nodeId, NOW)
  let n = 0
  for (const e of entries) await store.addPresence({node_id: nodeId, socket_id: `s${n++}`, did: null, vis: 'public', joined_at: NOW + n, ...e})
}

describe('POST /v1/clusters', () => {
  it('creates a private cluster with credentials, ws URL and protocol', async () => {
    const {app, store} = setup()
    const res = await request(app).post('/v1/clusters').send({})
    expect(res.status).toBe(201)
    expect(Object.keys(res.body).sort()).toEqual(['admin_token', 'cluster_id', 'protocol', 'token', 'visibility', 'ws'])
    expect(res.body.cluster_id).toMatch(/^c_[A-Za-z0-9_-]{22,}$/)
    // ≥ 128 random bits: 22+ base64url characters.
    expect(Buffer.from(res.body.cluster_id.slice(2), 'base64url').length).toBeGreaterThanOrEqual(16)
    expect(res.body.token).toMatch(/^ck_/)
    expect(res.body.admin_token).toMatch(/^ak_/)
    expect(res.body.visibility).toBe('private')
    expect(res.body.ws).toBe(`wss://relay.example/v1/clusters/${res.body.cluster_id}/ws`)
    expect(res.body.protocol).toEqual(expect.any(String))
    // Tokens are stored only as sha256 digests.
    const credentials = await store.getCredentials(res.body.cluster_id)
    expect(credentials).toEqual({token_hash: hashToken(res.body.token), admin_token_hash: hashToken(res.body.admin_token)})
  })

  it('gives a public named cluster its kebab-case slug, props and persist', async () => {
    const {app, store} = setup()
    const body = {name: 'Café du Monde!', visibility: 'public', topic: '#food', description: 'Beignets', props: {where: {lat: 29.95, lon: -90.06, label: 'New Orleans'}, lang: 'en', age_min: 0}, persist: true}
    const res = await request(app).post('/v1/clusters').send(body)
    expect(res.status).toBe(201)
    expect(res.body.slug).toBe('cafe-du-monde')
    expect(res.body.visibility).toBe('public')
    expect(await store.getCluster(res.body.cluster_id)).toMatchObject({name: 'Café du Monde!', slug: 'cafe-du-monde', topic: '#food', props: body.props, persist: true})
  })

  it('refuses a public slug that is taken with 409, but not for private clusters', async () => {
    const {app} = setup()
    await create(app, {name: 'Lobby', visibility: 'public'})
    const res = await request(app).post('/v1/clusters').send({name: 'lobby', visibility: 'public'})
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('slug_taken')
    await create(app, {name: 'Lobby'})
  })

  it('validates the body with a field path', async () => {
    const {app} = setup()
    const cases: Array<[unknown, string]> = [
      [{visibility: 'secret'}, 'visibility'],
      [{name: 5}, 'name'],
      [{props: {where: {lat: 200, lon: 0}}}, 'props.where.lat'],
      [{props: {age_min: -1}}, 'props.age_min'],
      [{persist: 'yes'}, 'persist'],
      [{nope: 1}, 'nope'],
    ]
    for (const [body, field] of cases) {
      const res = await request(app).post('/v1/clusters').send(body as object)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toMatchObject({code: 'invalid_body', field})
    }
    const blank = await request(app).post('/v1/clusters').send({name: ' \t '})
    expect([blank.status, blank.body.error]).toEqual([400, {code: 'invalid_body', field: 'name', message: 'name must be 1 to 100 characters, not only spaces'}])
    const bad = await request(app).post('/v1/clusters').set('content-type', 'application/json').send('{oops')
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('invalid_json')
  })

  it('keeps the creation quota when one address sends many creations at once', async () => {
    // A store slow to count keeps every request's check in flight together (the race to close).
    const memory = createMemoryClusterStore()
    const store = new Proxy(memory, {
      get: (target, key) =>
        key === 'countCreations'
          ? async (...args: Parameters<ClusterStore['countCreations']>) => {
              const counted = await target.countCreations(...args)
              await new Promise((resolve) => setTimeout(resolve, 20))
              return counted
            }
          : Reflect.get(target, key),
    })
    const {app} = setup({store, limits: {creationsPerIp: 2}})
    const statuses = await Promise.all(Array.from({length: 6}, () => request(app).post('/v1/clusters').send({}).then((res) => res.status)))
    expect(statuses.sort()).toEqual([201, 201, 429, 429, 429, 429])
  })

  it('refuses topic and description on a private cluster (spec: public only), on create and on PATCH', async () => {
    const {app} = setup()
    for (const body of [{topic: '#x'}, {visibility: 'private', description: 'd'}]) {
      const res = await request(app).post('/v1/clusters').send(body)
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({code: 'public_only', field: Object.keys(body).at(-1)})
    }
    const c = await create(app)
    const patched = await request(app).patch(`/v1/clusters/${c.cluster_id}`).set('x-cluster-token', c.admin_token).send({topic: 'x'})
    expect(patched.body.error).toMatchObject({code: 'public_only', field: 'topic'})
    // Clearing them, and everything else, stays allowed.
    expect((await request(app).patch(`/v1/clusters/${c.cluster_id}`).set('x-cluster-token', c.admin_token).send({topic: null, persist: true})).status).toBe(200)
  })

  it('limits creations per IP per hour with 429 and Retry-After', async () => {
    let now = NOW
    const {app} = setup({limits: {creationsPerIp: 2}, clock: () => now})
    await create(app)
    await create(app)
    const res = await request(app).post('/v1/clusters').send({})
    expect(res.status).toBe(429)
    expect(res.body.error.code).toBe('rate_limited')
    expect(Number(res.headers['retry-after'])).toBe(3600)
    now += 3600_000
    await create(app)
  })
})

describe('GET /v1/clusters (catalog)', () => {
  it('lists public clusters only, with online counts that leave ghosts out', async () => {
    const {app, store} = setup()
    const pub = await create(app, {name: 'Open Room', visibility: 'public', topic: 't', description: 'd'})
    const priv = await create(app, {name: 'Secret'})
    await present(store, 'n1', [
      {cluster_id: pub.cluster_id, agent: 'alice'},
      {cluster_id: pub.cluster_id, agent: 'alice'},
      {cluster_id: pub.cluster_id, agent: 'bob', vis: 'private'},
      {cluster_id: pub.cluster_id, agent: 'casper', vis: 'ghost'},
      {cluster_id: priv.cluster_id, agent: 'zed'},
    ])
    const res = await request(app).get('/v1/clusters')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({clusters: [{id: pub.cluster_id, name: 'Open Room', slug: 'open-room', topic: 't', description: 'd', online: 2}], count: 1})
    expect(JSON.stringify(res.body)).not.toContain('Secret')
  })

  it('pages with limit and offset and rejects bad numbers', async () => {
    const {app} = setup()
    for (let i = 0; i < 3; i++) await create(app, {visibility: 'public'})
    const res = await request(app).get('/v1/clusters?limit=2&offset=1')
    expect(res.body.clusters).toHaveLength(2)
    expect(res.body.count).toBe(3)
    expect((await request(app).get('/v1/clusters?limit=x')).status).toBe(400)
    expect((await request(app).get('/v1/clusters?limit=0')).status).toBe(400)
  })
})

describe('GET /v1/clusters/<id-or-slug>', () => {
  it('shows a public cluster by id and by slug, masking private-vis handles and hiding ghosts', async () => {
    const {app, store} = setup()
    const pub = await create(app, {name: 'Town Square', visibility: 'public', props: {lang: 'fr'}})
    await present(store, 'n1', [
      {cluster_id: pub.cluster_id, agent: 'alice', did: 'did:key:zA'},
      {cluster_id: pub.cluster_id, agent: 'secret-sam', vis: 'private', did: 'did:key:zS'},
      {cluster_id: pub.cluster_id, agent: 'casper', vis: 'ghost'},
      {cluster_id: pub.cluster_id, agent: 'bob'},
    ])
    const byId = await request(app).get(`/v1/clusters/${pub.cluster_id}`)
    expect(byId.status).toBe(200)
    expect(byId.body.cluster).toMatchObject({id: pub.cluster_id, cluster_id: pub.cluster_id, name: 'Town Square', slug: 'town-square', visibility: 'public', props: {lang: 'fr'}, persist: false, online: 3})
    expect(byId.body.cluster.members).toEqual([
      {agent: 'alice', did: 'did:key:zA'},
      {agent: 'member #2', did: null},
      {agent: 'bob', did: null},
    ])
    const text = JSON.stringify(byId.body)
    expect(text).not.toContain('secret-sam')
    expect(text).not.toContain('casper')
    expect(text).not.toContain('zS')
    const bySlug = await request(app).get('/v1/clusters/town-square')
    expect(bySlug.body).toEqual(byId.body)
  })

  it('answers 404 for private and unknown clusters and for private slugs', async () => {
    const {app} = setup()
    const priv = await create(app, {name: 'Hidden Place'})
    for (const path of [priv.cluster_id, 'c_AAAAAAAAAAAAAAAAAAAAAAAA', 'hidden-place', 'no-such', '%E0%A4%A']) {
      const res = await request(app).get(`/v1/clusters/${path}`)
      expect(res.status, path).toBe(404)
      expect(res.body.error.code).toBeDefined()
    }
    // The cluster's own token opens its detail.
    const withToken = await request(app).get(`/v1/clusters/${priv.cluster_id}`).set('x-cluster-token', priv.token)
    expect(withToken.status).toBe(200)
    expect(withToken.body.cluster.visibility).toBe('private')
  })
})

describe('PATCH /v1/clusters/<id>', () => {
  it('lets the admin token change props, persist, topic and description', async () => {
    const {app} = setup()
    const c = await create(app, {visibility: 'public', topic: 'old'})
    const res = await request(app).patch(`/v1/clusters/${c.cluster_id}`).set('authorization', `Bearer ${c.admin_token}`).send({props: {age_min: 18}, persist: true, description: 'new', topic: null})
    expect(res.status).toBe(200)
    expect(res.body.cluster).toMatchObject({props: {age_min: 18}, persist: true, description: 'new', topic: null})
  })

  it('refuses the ck_ token, a wrong or missing token (401), unknown ids (404), bad bodies (400)', async () => {
    const {app} = setup()
    const c = await create(app)
    const patch = (id: string, token?: string, body: object = {persist: true}) => {
      const req = request(app).patch(`/v1/clusters/${id}`)
      return (token ? req.set('x-cluster-token', token) : req).send(body)
    }
    expect((await patch(c.cluster_id, c.token)).status).toBe(401)
    expect((await patch(c.cluster_id)).status).toBe(401)
    expect((await patch(c.cluster_id, 'ak_wrong')).status).toBe(401)
    expect((await patch('c_AAAAAAAAAAAAAAAAAAAAAAAA', c.admin_token)).status).toBe(404)
    const bad = await patch(c.cluster_id, c.admin_token, {visibility: 'public'})
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('visibility')
    expect((await patch(c.cluster_id, c.admin_token, {})).status).toBe(400)
  })
})

describe('DELETE /v1/clusters/<id>', () => {
  it('takes the admin token as header, bearer or query, and removes the catalog row', async () => {
    const deleted: string[] = []
    const boards: BoardsPart = {
      middleware: async (_ctx, next) => next(),
      resolveTags: async () => ({}),
      onClusterDeleted: async (id) => void deleted.push(id),
      publicReads: noPublicReads,
    }
    const {app} = setup({boards})
    const a = await create(app, {name: 'A', visibility: 'public'})
    const b = await create(app)
    const c = await create(app)
    const r1 = await request(app).delete(`/v1/clusters/${a.cluster_id}`).set('x-cluster-token', a.admin_token)
    expect(r1.status).toBe(200)
    expect(r1.body).toEqual({ok: true, cluster_id: a.cluster_id})
    expect((await request(app).delete(`/v1/clusters/${b.cluster_id}`).set('authorization', `Bearer ${b.admin_token}`)).status).toBe(200)
    expect((await request(app).delete(`/v1/clusters/${c.cluster_id}?token=${c.admin_token}`)).status).toBe(200)
    expect(deleted).toEqual([a.cluster_id, b.cluster_id, c.cluster_id])
    expect((await request(app).get(`/v1/clusters/${a.cluster_id}`)).status).toBe(404)
    expect((await request(app).get('/v1/clusters/a')).status).toBe(404)
    expect((await request(app).get('/v1/clusters')).body).toEqual({clusters: [], count: 0})
    // The id now behaves as if it never existed.
    expect((await request(app).delete(`/v1/clusters/${a.cluster_id}`).set('x-cluster-token', a.admin_token)).status).toBe(404)
  })

  it('answers 401 for a ck_, wrong or missing token and 404 for an unknown cluster', async () => {
    const {app} = setup()
    const c = await create(app)
    const ck = await request(app).delete(`/v1/clusters/${c.cluster_id}`).set('x-cluster-token', c.token)
    expect(ck.status).toBe(401)
    expect(ck.body.error.code).toBe('admin_token_required')
    expect((await request(app).delete(`/v1/clusters/${c.cluster_id}`)).body.error.code).toBe('token_required')
    expect((await request(app).delete(`/v1/clusters/${c.cluster_id}`).set('x-cluster-token', 'ak_nope')).status).toBe(401)
    expect((await request(app).delete('/v1/clusters/c_AAAAAAAAAAAAAAAAAAAAAAAA').set('x-cluster-token', c.admin_token)).status).toBe(404)
    expect((await request(app).get(`/v1/clusters/${c.cluster_id}`).set('x-cluster-token', c.token)).status).toBe(200)
  })
})

describe('boards mount', () => {
  it('answers 404 on board routes without a boards part and reaches the part when given', async () => {
    const plain = setup()
    const c = await create(plain.app, {visibility: 'public'})
    expect((await request(plain.app).get(`/v1/clusters/${c.cluster_id}/boards`)).status).toBe(404)
    const boards: BoardsPart = {
      middleware: async (ctx, next) => (ctx.path.endsWith('/boards') ? void (ctx.body = {boards: []}) : next()),
      resolveTags: async () => ({}),
      onClusterDeleted: async () => {},
      publicReads: noPublicReads,
    }
    const withBoards = setup({boards})
    const d = await create(withBoards.app, {visibility: 'public'})
    expect((await request(withBoards.app).get(`/v1/clusters/${d.cluster_id}/boards`)).body).toEqual({boards: []})
    expect((await request(withBoards.app).get(`/v1/clusters/${d.cluster_id}`)).status).toBe(200)
  })
})
