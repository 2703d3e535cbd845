import {describe, expect, it} from 'vitest'
import {createSitePart} from '../../../src/registry/site/part.js'
import {SITE_CSP} from '../../../src/registry/site/constants.js'
import {createSiteAssets} from '../../../src/registry/site/assets.js'
import {createHarness} from '../harness.js'

describe('site chain', () => {
  const assets = createSiteAssets()
  const h = createHarness({parts: (ctx) => [createSitePart(ctx, {assets})]})

  it('sends a browser at / to the network page and leaves API clients their JSON 404', async () => {
    const browser = await h.http.get('/').set('accept', 'text/html')
    expect(browser.status).toBe(302)
    expect(browser.headers.location).toBe('/network')
    const api = await h.http.get('/').set('accept', 'application/json')
    expect(api.status).toBe(404)
    expect(api.body.error.code).toBeTypeOf('string')
  })
  it('serves hashed assets immutable with the site CSP and answers 304 to a matching ETag', async () => {
    const path = assets.url('base.css')
    const res = await h.http.get(path)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['content-security-policy']).toBe(SITE_CSP)
    const again = await h.http.get(path).set('if-none-match', res.headers.etag)
    expect(again.status).toBe(304)
    expect((await h.http.get('/site/base.000000000000.css')).status).toBe(404)
    expect((await h.http.post(path)).status).toBe(404)
  })
  it('serves live.js, which runs as the pages\' SharedWorker too, as an immutable script that the CSP lets be a worker', async () => {
    const res = await h.http.get(assets.url('live.js'))
    expect(res.status).toBe(200)
    // A worker script must come with a JavaScript type; its own CSP (the site's) lets it open the stream.
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toBe(SITE_CSP)
    expect(SITE_CSP).toContain("worker-src 'self'")
    expect(SITE_CSP).toContain("connect-src 'self'")
  })
  it('loads live.js on every page with a script, after site.js and before the area\'s own', async () => {
    const page = await h.http.get('/network').set('accept', 'text/html')
    const scripts = [...page.text.matchAll(/<script defer src="([^"]+)"><\/script>/g)].map((match) => match[1])
    expect(scripts).toEqual([assets.url('site.js'), assets.url('live.js'), assets.url('network.js')])
  })
})

describe('site error pages', () => {
  it('answers a browser with an HTML page of the same status when a page fails, and hides the cause', async () => {
    const h = createHarness({parts: (ctx) => [createSitePart(ctx)]})
    h.store.getAgent = async () => {
      throw new Error('disk on fire')
    }
    const browser = await h.http.get('/agent/alpha').set('accept', 'text/html')
    expect(browser.status).toBe(500)
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(browser.headers['content-security-policy']).toBe(SITE_CSP)
    expect(browser.text).toContain('<h1>Something went wrong</h1>')
    expect(browser.text).toContain('Internal server error')
    expect(browser.text).not.toContain('disk on fire')
    const api = await h.http.get('/agent/alpha').set('accept', 'application/json')
    expect(api.status).toBe(500)
    expect(api.body).toEqual({error: {code: 'internal', message: 'Internal server error'}})
  })
})
