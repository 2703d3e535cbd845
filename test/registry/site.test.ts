import {describe, expect, it} from 'vitest'
import {createSitePart} from '../../src/registry/site/part.js'
import {createHarness} from './harness.js'

async function withCard(card: Record<string, unknown>, site = true) {
  const h = createHarness(site ? {parts: (ctx) => [createSitePart(ctx)]} : {})
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
    expect(res.headers.vary).toContain('Accept')
    expect(res.text).not.toContain('<script>alert')
    expect(res.text).not.toContain('<img')
    expect(res.text).not.toContain('<b>c')
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(res.text).toContain('&quot;&gt;&lt;img')
    expect(res.text).toContain('href="https://a.example/?q=1&amp;r=2"')
  })
  it('the core route answers JSON only: without the site part a browser gets the DiscoveryCard too', async () => {
    const h = await withCard({name: 'Alpha'}, false)
    const res = await h.http.get('/agent/alpha').set('accept', 'text/html')
    expect(res.headers['content-type']).toContain('application/json')
    expect(res.headers.vary).toContain('Accept')
    expect(res.body.name).toBe('Alpha')
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
  it('well-known: only while the agent is live — offline (no heartbeat for 5 minutes) is 404 not_live, back online serves it again', async () => {
    const h = createHarness()
    const {api_key} = await h.register('alpha')
    await h.token('alpha', api_key)
    const publicCard = {name: 'Alpha', url: 'https://a.example', version: '1', skills: []}
    await h.store.saveProbe('alpha', {probed_at: '2026-06-15T12:00:30.000Z', card: publicCard, card_fetched_at: '2026-06-15T11:58:00.000Z', operational: null, card_match: null})
    const live = await h.http.get('/agent/alpha/.well-known/agent.json')
    expect(live.status).toBe(200)
    // The copy is as old as the fetch that returned it, not the latest probe.
    expect(live.headers['last-modified']).toBe('Mon, 15 Jun 2026 11:58:00 GMT')
    h.advance(5 * 60_000 - 1)
    expect((await h.http.get('/agent/alpha/.well-known/agent.json')).status).toBe(200)
    h.advance(1)
    const offline = await h.http.get('/agent/alpha/.well-known/agent.json')
    expect([offline.status, offline.body.error.code]).toEqual([404, 'not_live'])
    expect(offline.body.error.message).toContain('offline')
    expect(offline.headers['access-control-allow-origin']).toBe('*')
    await h.token('alpha', api_key)
    expect((await h.http.get('/agent/alpha/.well-known/agent.json')).body).toEqual(publicCard)
  })
  it('the HTML page shows the live check and how old the cached PublicCard is', async () => {
    const h = await withCard({name: 'Alpha'})
    const page = () => h.http.get('/agent/alpha').set('accept', 'text/html').then((res) => res.text)
    expect(await page()).toContain('live: not checked')
    expect(await page()).toContain("The registry has not fetched this agent's PublicCard")
    await h.store.saveProbe('alpha', {
      probed_at: '2026-06-15T12:00:00.000Z',
      card: {name: 'Alpha', skills: []},
      card_fetched_at: '2026-06-15T11:59:00.000Z',
      card_error: {at: '2026-06-15T12:00:00.000Z', reason: 'card_unavailable: GET /.well-known/agent.json answered 503'},
      live_check: {ok: false, source: 'availability', checked_at: '2026-06-15T12:00:00.000Z'},
      operational: true,
      card_match: null,
    })
    const html = await page()
    expect(html).toContain('>not live</span>')
    expect(html).toContain('It serves no <code>/health</code>; its card said <code>availability.now: false</code>')
    expect(html).toContain('From its PublicCard, fetched <time datetime="2026-06-15T11:59:00.000Z"')
    expect(html).toContain('failed: <code>card_unavailable: GET /.well-known/agent.json answered 503</code>. The last good copy is shown.')
  })
})
