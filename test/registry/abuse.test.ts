import {describe, expect, it} from 'vitest'
import {createHarness} from './harness.js'

describe('bad input and abuse', () => {
  it('answers unknown routes with a JSON 404 and wrong methods with a JSON 405', async () => {
    const h = createHarness()
    const unknown = await h.http.get('/v1/agents/alpha/nothing-here')
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found'])
    const wrongMethod = await h.http.delete('/v1/agents/register')
    expect([wrongMethod.status, wrongMethod.body.error.code]).toEqual([405, 'method_not_allowed'])
  })
  it('serves the fixed routes on their exact paths and on the variants the router accepts', async () => {
    const h = createHarness()
    const {api_key} = await h.register('alpha')
    for (const path of ['/v1/agents/token', '/agents/token', '/v1/agents/token/', '/V1/Agents/Token']) {
      const res = await h.http.post(path).send({agent_id: 'alpha', api_key})
      expect([path, res.status, res.body.agent_id]).toEqual([path, 200, 'alpha'])
    }
    const wrongMethod = await h.http.put('/v1/agents/me').send({})
    expect([wrongMethod.status, wrongMethod.body.error.code, wrongMethod.headers.allow]).toEqual([405, 'method_not_allowed', 'PATCH, HEAD, GET'])
  })
  it('limits requests per IP with 429 and Retry-After', async () => {
    const h = createHarness({limits: {perIpPerMinute: 3}})
    for (let i = 0; i < 3; i++) expect((await h.http.get('/v1/agents/ghost')).status).toBe(404)
    const limited = await h.http.get('/v1/agents/ghost')
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited'])
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    h.advance(60_000)
    expect((await h.http.get('/v1/agents/ghost')).status).toBe(404)
    // Paths outside the registry (another service on the same host) are not counted.
    for (let i = 0; i < 5; i++) expect((await h.http.get('/elsewhere')).status).toBe(404)
  })
  it('limits requests per verified identity', async () => {
    const h = createHarness({limits: {perIdentityPerMinute: 2}})
    const {api_key} = await h.register('alpha')
    const token = await h.token('alpha', api_key)
    const patch = () => h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({})
    expect((await patch()).status).toBe(200)
    expect((await patch()).status).toBe(200)
    const limited = await patch()
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBeDefined()
  })
  it('limits registrations per IP per hour', async () => {
    const h = createHarness({limits: {registrationsPerIpPerHour: 2}})
    await h.register('one')
    await h.register('two')
    expect((await h.http.post('/v1/agents/register').send({agent_id: 'three'})).status).toBe(429)
  })
  it('refuses bad limits at construction', () => {
    expect(() => createHarness({limits: {perIpPerMinute: 0}})).toThrow(TypeError)
  })
  it('answers /health with the node, its bus and its peers', async () => {
    const h = createHarness()
    expect((await h.http.get('/health')).body).toEqual({
      ok: true,
      service: 'registry',
      node_id: h.context.bus.nodeId,
      bus: {kind: 'local', connected: true, reconnects: 0, since: expect.any(String)},
      // No part tracks registry nodes here (the messaging part does): none seen yet.
      peers: [],
      checked_at: null,
    })
  })
})
