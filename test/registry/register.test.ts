import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import {createHarness, REGISTRY_URL} from './harness.js'

describe('POST /v1/agents/register', () => {
  it('registers: 201 with a 32-hex api_key shown once, a token and hub_url; stores only the hash', async () => {
    const h = createHarness()
    const res = await h.http.post('/v1/agents/register').send({agent_id: 'alpha_1', capabilities: ['translate'], endpoint: 'https://alpha.example'})
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({agent_id: 'alpha_1', hub_url: 'https://registry.example', handle: 'https://registry.example/agent/alpha_1', verified: false, did: null, rotated: false})
    expect(res.body.api_key).toMatch(/^[0-9a-f]{32}$/)
    expect(res.body.token.split('.')).toHaveLength(3)
    expect(typeof res.body.message).toBe('string')
    expect(res.headers['cache-control']).toBe('no-store')
    const stored = await h.store.getAgent('alpha_1')
    expect(stored!.apiKeyHash).toBe(createHash('sha256').update(res.body.api_key).digest('hex'))
    expect(JSON.stringify(stored)).not.toContain(res.body.api_key)
    expect(stored).toMatchObject({endpoint: 'https://alpha.example', capabilities: ['translate'], lastSeenMs: null})
  })

  it('answers a duplicate agent_id with 409 agent_exists', async () => {
    const h = createHarness()
    await h.register('alpha')
    const res = await h.http.post('/v1/agents/register').send({agent_id: 'alpha'})
    expect(res.status).toBe(409)
    expect(res.body.error).toMatchObject({code: 'agent_exists', field: 'agent_id'})
  })

  it.each([
    ['too short', {agent_id: 'ab'}, 'agent_id'],
    ['too long', {agent_id: 'a'.repeat(65)}, 'agent_id'],
    ['bad charset', {agent_id: 'has space'}, 'agent_id'],
    ['not a string', {agent_id: 42}, 'agent_id'],
    ['missing', {capabilities: []}, 'agent_id'],
    ['13 capabilities', {agent_id: 'alpha', capabilities: Array.from({length: 13}, (_, i) => `c${i}`)}, 'capabilities'],
    ['capability over 50 chars', {agent_id: 'alpha', capabilities: ['x'.repeat(51)]}, 'capabilities[0]'],
    ['unknown key', {agent_id: 'alpha', color: 'red'}, 'color'],
    ['endpoint not a URL', {agent_id: 'alpha', endpoint: 'ftp://x'}, 'endpoint'],
  ])('refuses %s with 400 invalid_body', async (_name, body, field) => {
    const res = await createHarness().http.post('/v1/agents/register').send(body)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({code: 'invalid_body', field})
  })

  it('accepts the boundaries: 3 and 64 chars, 12 capabilities of 50 chars', async () => {
    const h = createHarness()
    await h.register('abc')
    await h.register('a'.repeat(64), {capabilities: Array.from({length: 12}, (_, i) => String(i).padEnd(50, 'x'))})
  })

  it('refuses ids reserved by routes, malformed JSON, non-objects and oversized bodies', async () => {
    const h = createHarness()
    const reserved = await h.http.post('/v1/agents/register').send({agent_id: 'messages'})
    expect(reserved.body.error.code).toBe('reserved_agent_id')
    const badJson = await h.http.post('/v1/agents/register').set('content-type', 'application/json').send('{"agent_id": ')
    expect([badJson.status, badJson.body.error.code]).toEqual([400, 'invalid_json'])
    const array = await h.http.post('/v1/agents/register').set('content-type', 'application/json').send('[]')
    expect([array.status, array.body.error.code]).toEqual([400, 'invalid_body'])
    const huge = await h.http.post('/v1/agents/register').send({agent_id: 'alpha', description: 'x'.repeat(70_000)})
    expect([huge.status, huge.body.error.code]).toEqual([413, 'body_too_large'])
  })

  it('is also served on the legacy path, with a Deprecation header', async () => {
    const res = await createHarness().http.post('/agents/register').send({agent_id: 'legacy1'})
    expect(res.status).toBe(201)
    expect(res.headers.deprecation).toMatch(/^@\d+$/)
    expect(res.headers.link).toContain('successor-version')
  })
})

describe('pubkey binding and key rotation', () => {
  it('binds a pubkey with a valid Mesh-Sig from that key: verified, did:key', async () => {
    const h = createHarness()
    const {res, keys} = await h.registerSigned('signed1')
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({pubkey: keys.publicKey, verified: true})
    expect(res.body.did).toMatch(/^did:key:z6Mk/)
  })

  it('refuses a pubkey without a signature (401 signature_required) or signed by another key (401 pubkey_mismatch)', async () => {
    const h = createHarness()
    const keys = generateIdentityKeyPair()
    const unsigned = await h.http.post('/v1/agents/register').send({agent_id: 'signed1', pubkey: keys.publicKey})
    expect([unsigned.status, unsigned.body.error.code]).toEqual([401, 'signature_required'])
    const other = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'signed1', pubkey: keys.publicKey})
    const sig = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: other.privateKeyPem, ts: Math.floor(h.now() / 1000), audience: REGISTRY_URL})
    const mismatch = await h.http.post('/v1/agents/register').set('content-type', 'application/json').set('Mesh-Sig', sig).send(body)
    expect([mismatch.status, mismatch.body.error.code]).toEqual([401, 'pubkey_mismatch'])
    expect(await h.store.getAgent('signed1')).toBeNull()
  })

  it('refuses a bad signature, a stale one and a replay with 401', async () => {
    const h = createHarness()
    const keys = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'signed2', pubkey: keys.publicKey})
    const ts = Math.floor(h.now() / 1000)
    const send = (sig: string, payload = body) => h.http.post('/v1/agents/register').set('content-type', 'application/json').set('Mesh-Sig', sig).send(payload)
    const tampered = await send(signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts, audience: REGISTRY_URL}), body.replace('signed2', 'signed3'))
    expect(tampered.body.error.code).toBe('invalid_signature')
    const stale = await send(signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts: ts - 121, audience: REGISTRY_URL}))
    expect(stale.body.error.code).toBe('signature_expired')
    const good = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts, audience: REGISTRY_URL})
    expect((await send(good)).status).toBe(201)
    const replay = await send(good)
    expect([replay.status, replay.body.error.code]).toEqual([401, 'nonce_reused'])
  })

  it('rotates the api_key when the same id re-registers signed by the bound key; old key and tokens stop working', async () => {
    const h = createHarness()
    const first = await h.registerSigned('rotor')
    const oldKey = first.res.body.api_key
    const oldToken = await h.token('rotor', oldKey)
    const again = await h.registerSigned('rotor', first.keys, {endpoint: 'https://moved.example'})
    expect(again.res.status).toBe(200)
    expect(again.res.body.rotated).toBe(true)
    expect(again.res.body.api_key).not.toBe(oldKey)
    const refused = await h.http.post('/v1/agents/token').send({agent_id: 'rotor', api_key: oldKey})
    expect([refused.status, refused.body.error.code]).toEqual([401, 'invalid_credentials'])
    const stale = await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${oldToken}`).send({description: 'x'})
    expect([stale.status, stale.body.error.code]).toEqual([401, 'invalid_token'])
    expect(await h.token('rotor', again.res.body.api_key)).toBeTruthy()
    expect((await h.store.getAgent('rotor'))!.endpoint).toBe('https://moved.example')
  })

  it('keeps capabilities and the stored card\'s tags in step when a rotation changes the capabilities', async () => {
    const h = createHarness()
    const first = await h.registerSigned('rotor')
    const token = await h.token('rotor', first.res.body.api_key)
    await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({agent_card: {name: 'Rotor', tags: ['demo'], category: 'x.y'}})
    const again = await h.registerSigned('rotor', first.keys, {capabilities: ['ocr', 'pdf']})
    expect(again.res.status).toBe(200)
    const stored = (await h.store.getAgent('rotor'))!
    expect(stored.capabilities).toEqual(['ocr', 'pdf'])
    expect(stored.agentCard).toEqual({name: 'Rotor', tags: ['ocr', 'pdf'], category: 'x.y', owner_class: 'third-party'})
    expect((await h.http.get('/agent/rotor').set('accept', 'application/json')).body.tags).toEqual(['ocr', 'pdf'])
    expect(h.events.filter((e) => e.type === 'agent.card' && e.agent_id === 'rotor')).toHaveLength(2)
  })

  it('a rotation that names no capabilities leaves capabilities and tags alone; one without a card stores none', async () => {
    const h = createHarness()
    const first = await h.registerSigned('rotor')
    const token = await h.token('rotor', first.res.body.api_key)
    await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({agent_card: {name: 'Rotor', tags: ['demo', 'x']}})
    const body = JSON.stringify({agent_id: 'rotor', pubkey: first.keys.publicKey})
    const sig = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: first.keys.privateKeyPem, ts: Math.floor(h.now() / 1000), audience: REGISTRY_URL})
    expect((await h.http.post('/v1/agents/register').set('content-type', 'application/json').set('Mesh-Sig', sig).send(body)).status).toBe(200)
    const stored = (await h.store.getAgent('rotor'))!
    expect([stored.capabilities, stored.agentCard?.tags]).toEqual([['demo', 'x'], ['demo', 'x']])
    const bare = await h.registerSigned('bare')
    await h.registerSigned('bare', bare.keys, {capabilities: ['solo']})
    expect(await h.store.getAgent('bare')).toMatchObject({capabilities: ['solo'], agentCard: null})
  })

  it('does not rotate for another key or an agent without a key (409)', async () => {
    const h = createHarness()
    await h.registerSigned('keyed')
    expect((await h.registerSigned('keyed')).res.status).toBe(409)
    await h.register('keyless')
    expect((await h.registerSigned('keyless')).res.status).toBe(409)
  })
})

describe('Mesh-Sig v1 and the audience at the registry (issue 18)', () => {
  const registerWith = (h: ReturnType<typeof createHarness>, body: string, sig: string) =>
    h.http.post('/v1/agents/register').set('content-type', 'application/json').set('Mesh-Sig', sig).send(body)

  it('refuses to bind a pubkey on a v1 signature (401 mesh_sig_v2_required); nothing is created', async () => {
    const h = createHarness()
    const keys = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'v1bind', pubkey: keys.publicKey})
    const v1 = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts: Math.floor(h.now() / 1000)})
    const res = await registerWith(h, body, v1)
    expect([res.status, res.body.error.code]).toEqual([401, 'mesh_sig_v2_required'])
    expect(res.body.error.message).toContain('names no server')
    expect(await h.store.getAgent('v1bind')).toBeNull()
  })

  it('refuses to rotate the api_key on a v1 signature from the bound key (401 mesh_sig_v2_required); the key keeps working', async () => {
    const h = createHarness()
    const first = await h.registerSigned('v1rot')
    const apiKey = first.res.body.api_key
    for (const fields of [{agent_id: 'v1rot'}, {agent_id: 'v1rot', pubkey: first.keys.publicKey}]) {
      const body = JSON.stringify(fields)
      const v1 = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: first.keys.privateKeyPem, ts: Math.floor(h.now() / 1000)})
      const res = await registerWith(h, body, v1)
      expect([res.status, res.body.error.code]).toEqual([401, 'mesh_sig_v2_required'])
      expect(res.body.api_key).toBeUndefined()
    }
    expect(await h.token('v1rot', apiKey)).toBeTruthy()
  })

  it('registers without a pubkey on a v1 signature, as the spec allows (nothing is bound)', async () => {
    const h = createHarness()
    const keys = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'v1plain'})
    const res = await registerWith(h, body, signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts: Math.floor(h.now() / 1000)}))
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({verified: false, pubkey: null})
  })

  it('refuses a v2 signature made for another registry (401 wrong_audience, naming both) without burning its nonce', async () => {
    const h = createHarness()
    const first = await h.registerSigned('aud')
    const body = JSON.stringify({agent_id: 'aud', pubkey: first.keys.publicKey})
    const ts = Math.floor(h.now() / 1000)
    const sign = (audience: string) => signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: first.keys.privateKeyPem, ts, nonce: 'same-nonce-0001', audience})
    const res = await registerWith(h, body, sign('https://other-registry.example'))
    expect([res.status, res.body.error.code]).toEqual([401, 'wrong_audience'])
    expect(res.body.error.message).toBe('Mesh-Sig was signed for https://other-registry.example; this is https://registry.example')
    // the nonce of a signature refused for its audience is not consumed: the same nonce signed for this registry works
    expect((await registerWith(h, body, sign(REGISTRY_URL))).status).toBe(200)
  })

  it('behind a proxy without a public URL (audienceFromRequest): the origin the proxy forwarded is the audience', async () => {
    const h = createHarness({behindProxyWithoutPublicUrl: true})
    const keys = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'proxied', pubkey: keys.publicKey})
    const ts = Math.floor(h.now() / 1000)
    const send = (audience: string, forwardedHost: string) =>
      h.http.post('/v1/agents/register').set('content-type', 'application/json').set('x-forwarded-proto', 'https').set('x-forwarded-host', forwardedHost).set('Mesh-Sig', signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, ts, audience})).send(body)
    const other = await send('https://public.example', 'elsewhere.example')
    expect([other.status, other.body.error.code]).toEqual([401, 'wrong_audience'])
    expect(other.body.error.message).toBe('Mesh-Sig was signed for https://public.example; this is https://elsewhere.example')
    const good = await send('https://public.example', 'Public.example')
    expect(good.status, JSON.stringify(good.body)).toBe(201)
  })
})
