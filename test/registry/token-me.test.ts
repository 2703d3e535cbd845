import {describe, expect, it} from 'vitest'
import {ADMIN_KEY, createHarness} from './harness.js'

const card = (over: Record<string, unknown> = {}) => ({
  name: 'Alpha Translator',
  endpoint: 'https://alpha.example',
  category: 'language.translation',
  description: 'Translates text.',
  tags: ['translate', 'french'],
  accepts: ['application/json'],
  produces: ['application/json'],
  protocols: ['http'],
  pricing: {unit: 'request', amount: 0, currency: 'free'},
  availability: {now: true},
  brand: 'acme',
  ...over,
})

/** A card nested exactly `depth` levels deep ({} counts as one). */
function nested(depth: number): Record<string, unknown> {
  let inner: Record<string, unknown> = {}
  for (let i = 1; i < depth - 1; i++) inner = {n: inner}
  return {name: 'deep', x: inner}
}

describe('POST /v1/agents/token', () => {
  it('mints a 24 h JWT and marks the agent online', async () => {
    const h = createHarness()
    const {api_key} = await h.register('alpha')
    expect((await h.http.get('/v1/agents/alpha')).body.online).toBe(false)
    const res = await h.http.post('/v1/agents/token').send({agent_id: 'alpha', api_key})
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({agent_id: 'alpha', token_type: 'Bearer', expires_in: 86_400, online: true})
    const record = (await h.http.get('/v1/agents/alpha')).body
    expect(record).toMatchObject({online: true, live: 1, last_seen: new Date(h.now()).toISOString()})
  })
  it('answers wrong or unknown credentials with 401 invalid_credentials, bad bodies with 400', async () => {
    const h = createHarness()
    await h.register('alpha')
    for (const body of [{agent_id: 'alpha', api_key: '0'.repeat(32)}, {agent_id: 'ghost', api_key: '0'.repeat(32)}]) {
      const res = await h.http.post('/v1/agents/token').send(body)
      expect([res.status, res.body.error.code]).toEqual([401, 'invalid_credentials'])
    }
    const missing = await h.http.post('/v1/agents/token').send({agent_id: 'alpha'})
    expect(missing.body.error).toMatchObject({code: 'invalid_body', field: 'api_key'})
    const wrongType = await h.http.post('/agents/token').send({agent_id: 'alpha', api_key: 5})
    expect([wrongType.status, wrongType.body.error.field]).toEqual([400, 'api_key'])
  })
  it('goes offline 5 minutes after the last token call (derived at read)', async () => {
    const h = createHarness()
    const {api_key} = await h.register('alpha')
    await h.token('alpha', api_key)
    h.advance(5 * 60_000 - 1)
    expect((await h.http.get('/v1/agents/alpha')).body.online).toBe(true)
    h.advance(1)
    expect((await h.http.get('/v1/agents/alpha')).body).toMatchObject({online: false, live: 0})
  })
})

describe('PATCH /v1/agents/me', () => {
  async function online(h = createHarness()) {
    const {api_key} = await h.register('alpha')
    const token = await h.token('alpha', api_key)
    const patch = (body: unknown, headers: Record<string, string> = {}) =>
      h.http.patch('/v1/agents/me').set({authorization: `Bearer ${token}`, ...headers}).send(body as object)
    return {h, token, patch}
  }

  it('stores the card and hoists name, owner_class and brand; capabilities follow the tags', async () => {
    const {h, patch} = await online()
    const res = await patch({description: 'Top-level description', capabilities: ['translate', 'french'], agent_card: card()})
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ok: true, display_name: 'Alpha Translator', owner_class: 'third-party', brand: 'acme', capabilities: ['translate', 'french']})
    expect(res.body.warnings).toBeUndefined()
    const record = (await h.http.get('/v1/agents/alpha')).body
    expect(record).toMatchObject({display_name: 'Alpha Translator', brand: 'acme', endpoint: 'https://alpha.example', description: 'Top-level description', capabilities: ['translate', 'french']})
    expect(record.agent_card).toMatchObject({...card(), owner_class: 'third-party'})
  })
  it('keeps capabilities equal to tags: the card wins, with a warning', async () => {
    const {h, patch} = await online()
    const res = await patch({capabilities: ['other'], agent_card: card({tags: ['one']})})
    expect(res.body.capabilities).toEqual(['one'])
    expect(res.body.warnings[0]).toContain('tags')
    const onlyCaps = await patch({capabilities: ['two']})
    expect(onlyCaps.body.capabilities).toEqual(['two'])
    expect((await h.store.getAgent('alpha'))!.agentCard!.tags).toEqual(['two'])
  })
  it('stores a reserved owner_class from a third party as third-party with warnings; the admin key sets it', async () => {
    const {h, patch} = await online()
    const refused = await patch({agent_card: card({owner_class: 'core'})})
    expect(refused.status).toBe(200)
    expect(refused.body.owner_class).toBe('third-party')
    expect(refused.body.warnings.join(' ')).toContain('reserved')
    const granted = await patch({agent_card: card({owner_class: 'partner'})}, {'x-admin-key': ADMIN_KEY})
    expect(granted.body.owner_class).toBe('partner')
    // Later heartbeats without the admin key keep the granted class.
    expect((await patch({agent_card: card()})).body.owner_class).toBe('partner')
    expect((await patch({agent_card: card({owner_class: 'partner'})})).body.warnings).toBeUndefined()
    expect((await h.http.get('/platform/network')).body.agents[0].owner_class).toBe('partner')
    const wrong = await patch({agent_card: card()}, {'x-admin-key': 'nope'})
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'invalid_admin_key'])
  })
  it('refuses out-of-bounds pushes with 400 and never truncates', async () => {
    const {h, patch} = await online()
    await patch({agent_card: card()})
    const cases: Array<[unknown, string, string]> = [
      [{description: 'x'.repeat(501)}, 'invalid_body', 'description'],
      [{agent_card: card({description: 'x'.repeat(501)})}, 'invalid_body', 'agent_card.description'],
      [{agent_card: card({tags: Array.from({length: 13}, (_, i) => `t${i}`)})}, 'invalid_body', 'agent_card.tags'],
      [{agent_card: card({blob: 'x'.repeat(16 * 1024)})}, 'card_too_large', 'agent_card'],
      [{agent_card: nested(17)}, 'card_too_deep', 'agent_card'],
      [{agent_card: card({owner_class: 'royal'})}, 'invalid_body', 'agent_card.owner_class'],
      [{agent_card: card({pricing: {amount: -1, unit: 'request', currency: 'USD'}})}, 'invalid_body', 'agent_card.pricing.amount'],
      [{agent_card: 'not a card'}, 'invalid_body', 'agent_card'],
      [{surprise: 1}, 'invalid_body', 'surprise'],
    ]
    for (const [body, code, field] of cases) {
      const res = await patch(body)
      expect([res.status, res.body.error.code, res.body.error.field], JSON.stringify(body).slice(0, 80)).toEqual([400, code, field])
    }
    expect((await h.store.getAgent('alpha'))!.agentCard).toMatchObject({description: 'Translates text.'})
    expect((await patch({agent_card: nested(16)})).status).toBe(200)
  })
  it('refuses missing, malformed, foreign and expired tokens with 401', async () => {
    const {h, patch} = await online()
    const none = await h.http.patch('/v1/agents/me').send({description: 'x'})
    expect([none.status, none.body.error.code]).toEqual([401, 'missing_token'])
    const garbage = await h.http.patch('/v1/agents/me').set('authorization', 'Bearer abc.def.ghi').send({description: 'x'})
    expect(garbage.body.error.code).toBe('invalid_token')
    const other = createHarness()
    const {api_key} = await other.register('alpha')
    const foreign = await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${await other.token('alpha', api_key)}`).send({})
    expect(foreign.body.error.code).toBe('invalid_token')
    h.advance(24 * 3600_000 + 1000)
    const expired = await patch({description: 'x'})
    expect([expired.status, expired.body.error.code]).toEqual([401, 'token_expired'])
  })
  it('webhook: 503 without the messaging part; validated; delegated to the hook, secret returned', async () => {
    const {patch} = await online()
    expect((await patch({webhook: {url: 'https://hook.example/in'}})).body.error.code).toBe('webhooks_unavailable')
    const calls: Array<[string, string | null]> = []
    const withHook = createHarness({
      parts: (ctx) => {
        ctx.webhooks = {
          async set(agentId, url) {
            calls.push([agentId, url])
            return url ? {webhook_secret: 'whsec_test'} : {}
          },
        }
        return []
      },
    })
    const {patch: patch2} = await online(withHook)
    expect((await patch2({webhook: {url: 'not a url'}})).body.error).toMatchObject({code: 'invalid_body', field: 'webhook.url'})
    const set = await patch2({webhook: {url: 'https://hook.example/in'}})
    expect(set.body).toMatchObject({ok: true, webhook_secret: 'whsec_test', webhook: 'https://hook.example/in'})
    const removed = await patch2({webhook: {url: null}})
    expect(removed.body.webhook_secret).toBeUndefined()
    expect(calls).toEqual([['alpha', 'https://hook.example/in'], ['alpha', null]])
  })
})
