import {describe, expect, it} from 'vitest'
import {createHarness} from './harness.js'

describe('GET /v1/agents/<id> and /identity', () => {
  it('returns the directory record with discovery qualities from the probe result', async () => {
    const h = createHarness()
    const {res} = await h.registerSigned('alpha', undefined, {endpoint: 'https://alpha.example'})
    await h.store.saveProbe('alpha', {
      probed_at: '2026-06-15T11:59:00.000Z',
      card: {name: 'A'},
      card_fetched_at: '2026-06-15T11:58:00.000Z',
      card_error: {at: '2026-06-15T11:59:00.000Z', reason: 'card_unavailable: GET /.well-known/agent.json answered 503'},
      live_check: {ok: true, source: 'health', checked_at: '2026-06-15T11:59:00.000Z'},
      operational: true,
      card_match: '2/2',
    })
    const record = await h.http.get('/v1/agents/alpha')
    expect(record.status).toBe(200)
    expect(record.headers['access-control-allow-origin']).toBe('*')
    expect(record.body).toEqual({
      agent_id: 'alpha',
      display_name: 'alpha',
      owner_class: 'third-party',
      brand: null,
      description: null,
      capabilities: ['demo'],
      online: false,
      live: 0,
      last_seen: null,
      registered: new Date(h.now()).toISOString(),
      endpoint: 'https://alpha.example',
      handle: 'https://registry.example/agent/alpha',
      pubkey: res.body.pubkey,
      did: res.body.did,
      verified: true,
      operational: true,
      card_match: '2/2',
      probed_at: '2026-06-15T11:59:00.000Z',
      live_check: {ok: true, source: 'health', checked_at: '2026-06-15T11:59:00.000Z'},
      card_fetched_at: '2026-06-15T11:58:00.000Z',
      card_error: {at: '2026-06-15T11:59:00.000Z', reason: 'card_unavailable: GET /.well-known/agent.json answered 503'},
      agent_card: null,
    })
    const legacy = await h.http.get('/agents/alpha')
    expect(legacy.body.online).toBe(false)
    expect(legacy.headers.deprecation).toBeDefined()
  })
  it('never-probed agents show operational and card_match null', async () => {
    const h = createHarness()
    await h.register('beta')
    expect((await h.http.get('/v1/agents/beta')).body).toMatchObject({operational: null, card_match: null, verified: false, did: null, live_check: null, card_fetched_at: null, card_error: null})
  })
  it('reads a card saved before card_fetched_at existed as fetched at its probed_at', async () => {
    const h = createHarness()
    await h.register('gamma')
    await h.store.saveProbe('gamma', {probed_at: '2026-06-15T11:00:00.000Z', card: {name: 'G'}, operational: false, card_match: null})
    expect((await h.http.get('/v1/agents/gamma')).body).toMatchObject({card_fetched_at: '2026-06-15T11:00:00.000Z', card_error: null, live_check: null})
  })
  it('answers the identity attestation', async () => {
    const h = createHarness()
    const {res} = await h.registerSigned('alpha', undefined, {endpoint: 'https://alpha.example'})
    const identity = await h.http.get('/v1/agents/alpha/identity')
    expect(identity.body).toEqual({
      agent_id: 'alpha',
      handle: 'https://registry.example/agent/alpha',
      pubkey: res.body.pubkey,
      did: res.body.did,
      verified: true,
      endpoint: 'https://alpha.example',
      registered: new Date(h.now()).toISOString(),
      online: false,
    })
  })
  it('404 agent_not_found for unknown ids, 400 invalid_agent_id for impossible ones', async () => {
    const h = createHarness()
    const missing = await h.http.get('/v1/agents/ghost')
    expect([missing.status, missing.body.error.code]).toEqual([404, 'agent_not_found'])
    const impossible = await h.http.get('/v1/agents/a%20b/identity')
    expect([impossible.status, impossible.body.error.code]).toEqual([400, 'invalid_agent_id'])
  })
})

describe('listings', () => {
  async function populated() {
    const h = createHarness()
    for (const id of ['delta', 'alpha', 'charlie', 'bravo', 'echo']) await h.register(id)
    const keys: Record<string, string> = {}
    for (const id of ['alpha', 'charlie']) keys[id] = (await h.http.post('/v1/agents/register').send({agent_id: `${id}-on`})).body.api_key
    for (const id of ['alpha', 'charlie']) await h.token(`${id}-on`, keys[id])
    return h
  }
  it('pages /v1/agents with an opaque keyset cursor', async () => {
    const h = await populated()
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: {body: {agents: Array<{agent_id: string}>; next_cursor: string | null}} = await h.http.get('/v1/agents').query(cursor ? {limit: 3, cursor} : {limit: 3})
      seen.push(...res.body.agents.map((a) => a.agent_id))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(seen).toEqual(['alpha', 'alpha-on', 'bravo', 'charlie', 'charlie-on', 'delta', 'echo'])
  })
  it('filters by liveness', async () => {
    const h = await populated()
    const online = await h.http.get('/v1/agents?online=true')
    expect(online.body.agents.map((a: {agent_id: string}) => a.agent_id)).toEqual(['alpha-on', 'charlie-on'])
    const offline = await h.http.get('/v1/agents?online=0')
    expect(offline.body.agents).toHaveLength(5)
  })
  it('refuses bad queries with 400', async () => {
    const h = await populated()
    for (const [query, code, field] of [
      ['limit=0', 'invalid_query', 'limit'],
      ['limit=ten', 'invalid_query', 'limit'],
      ['online=maybe', 'invalid_query', 'online'],
      ['cursor=bm9wZQ', 'invalid_cursor', 'cursor'],
      ['limit=1&limit=2', 'invalid_query', 'limit'],
      ['sort=name', 'invalid_query', 'sort'],
    ]) {
      const res = await h.http.get(`/v1/agents?${query}`)
      expect([res.status, res.body.error.code, res.body.error.field], query).toEqual([400, code, field])
    }
    expect((await h.http.get('/v1/agents?limit=99999')).status).toBe(200)
  })
  it('/platform/network lists hoisted fields and keeps offline agents, marked offline', async () => {
    const h = await populated()
    const {api_key} = await h.register('zulu')
    const token = await h.token('zulu', api_key)
    await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({agent_card: {name: 'Zulu', brand: 'acme', category: 'media.image'}})
    h.advance(6 * 60_000)
    const res = await h.http.get('/platform/network')
    expect(res.headers.deprecation).toBeDefined()
    expect(res.body.count).toBe(8)
    expect(res.body.online).toBe(0)
    const zulu = res.body.agents.find((a: {agent_id: string}) => a.agent_id === 'zulu')
    expect(zulu).toMatchObject({display_name: 'Zulu', brand: 'acme', owner_class: 'third-party', category: 'media.image', online: false, live: 0, live_check: null})
    const check = {ok: true, source: 'availability', checked_at: '2026-06-15T12:01:00.000Z'} as const
    await h.store.saveProbe('zulu', {probed_at: check.checked_at, card: null, operational: null, card_match: null, live_check: check})
    const again = (await h.http.get('/platform/network')).body.agents.find((a: {agent_id: string}) => a.agent_id === 'zulu')
    expect(again.live_check).toEqual(check)
    expect(res.body.agents.find((a: {agent_id: string}) => a.agent_id === 'alpha').display_name).toBe('alpha')
  })
})
