import {describe, expect, it} from 'vitest'
import {createHarness} from './harness.js'

async function withCard(card: Record<string, unknown>) {
  const h = createHarness()
  const {api_key} = await h.register('alpha')
  const token = await h.token('alpha', api_key)
  const pushed = await h.http.patch('/v1/agents/me').set('authorization', `Bearer ${token}`).send({agent_card: card})
  expect(pushed.status).toBe(200)
  return h
}

describe('site routes', () => {
  it('serves HTML to browsers with every value escaped and a strict CSP', async () => {
    const evil = '<script>alert(1)</script>'
    const h = await withCard({name: evil, description: `"><img src=x onerror=alert(2)>`, category: '<b>c</b>', tags: ['<i>'], endpoint: 'https://a.example/?q=1&r=2'})
    const res = await h.http.get('/agent/alpha').set('accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
    expect(res.text).not.toContain('<script>alert')
    expect(res.text).not.toContain('<img')
    expect(res.text).not.toContain('<b>c')
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(res.text).toContain('&quot;&gt;&lt;img')
    expect(res.text).toContain('href="https://a.example/?q=1&amp;r=2"')
  })
  it('serves the DiscoveryCard for Accept: application/json', async () => {
    const h = await withCard({name: 'Alpha', tags: ['t'], category: 'x.y'})
    const res = await h.http.get('/agent/alpha').set('accept', 'application/json')
    expect(res.headers['content-type']).toContain('application/json')
    expect(res.headers.vary).toContain('Accept')
    expect(res.body).toEqual({name: 'Alpha', tags: ['t'], category: 'x.y', owner_class: 'third-party'})
  })
  it('serves a minimal card before the first push', async () => {
    const h = createHarness()
    await h.register('bare', {endpoint: 'https://bare.example'})
    const res = await h.http.get('/agent/bare').set('accept', 'application/json')
    expect(res.body).toEqual({name: 'bare', tags: ['demo'], owner_class: 'third-party', endpoint: 'https://bare.example'})
  })
  it('well-known: the prober cached PublicCard, else 404 not_live; unknown agents 404', async () => {
    const h = await withCard({name: 'Alpha'})
    const notLive = await h.http.get('/agent/alpha/.well-known/agent.json')
    expect([notLive.status, notLive.body.error.code]).toEqual([404, 'not_live'])
    const publicCard = {name: 'Alpha', url: 'https://a.example', version: '1', skills: []}
    await h.store.saveProbe('alpha', {probed_at: new Date().toISOString(), card: publicCard, operational: null, card_match: null})
    const live = await h.http.get('/agent/alpha/.well-known/agent.json')
    expect(live.status).toBe(200)
    expect(live.body).toEqual(publicCard)
    expect(live.headers['access-control-allow-origin']).toBe('*')
    expect((await h.http.get('/agent/ghost')).status).toBe(404)
    expect((await h.http.get('/agent/ghost/.well-known/agent.json')).body.error.code).toBe('agent_not_found')
  })
})
