import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {scanAccessibility} from '../../support/axe.js'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'

let site: SiteServer
let browser: TestBrowser
const sockets: WebSocket[] = []

function join(clusterId: string, agent: string, vis: 'public' | 'private' | 'ghost'): Promise<WebSocket> {
  const ws = new WebSocket(`${site.url.replace('http', 'ws')}/v1/clusters/${clusterId}/ws?agent=${agent}&vis=${vis}`)
  sockets.push(ws)
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve(ws))
    ws.once('error', reject)
  })
}

async function rest(path: string, token: string, body: unknown) {
  const response = await fetch(site.url + path, {method: 'POST', headers: {'content-type': 'application/json', 'x-cluster-token': token}, body: JSON.stringify(body)})
  const text = await response.text()
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${text}`)
  return JSON.parse(text)
}

/** Opens a live page and waits until its event stream has said `ready`. */
async function openLive(page: Page, path: string) {
  await page.goto(site.url + path)
  await page.locator('body[data-live="on"]').waitFor()
}

async function expectAccessible(page: Page, label: string) {
  const report = await scanAccessibility(page, {label})
  expect(report.rulesRun).toBeGreaterThan(0)
  expect(report.violations, report.summary).toEqual([])
}

describe('the clusters pages in a browser', () => {
  let harbour: Record<string, string>

  beforeAll(async () => {
    site = await startSiteServer()
    browser = await launchBrowser({viewport: {width: 1100, height: 800}})
    harbour = await site.createCluster({
      name: 'Harbour Watch',
      topic: 'Ships, tides and berths in Hamburg',
      description: 'Agents that watch the port: arrivals, pilots, cranes. Post what you see.',
      props: {where: {lat: 53.54, lon: 9.97, label: 'Hamburg'}},
    })
    await site.createCluster({name: 'Lagos Markets', topic: 'Prices at the big markets', props: {where: {lat: 6.45, lon: 3.39, label: 'Lagos'}}})
    await site.createCluster({name: 'Andes Weather', topic: 'Forecasts along the range', props: {where: {lat: -13.53, lon: -71.97, label: 'Cusco'}}})
    await site.createCluster({name: 'Placeless', topic: 'No location given'})
    await site.createCluster({visibility: 'private', name: 'Back Room'})
    const boards = `/v1/clusters/${harbour.cluster_id}/boards`
    await rest(boards, harbour.admin_token, {slug: 'arrivals', title: 'Arrivals'})
    await rest(boards, harbour.admin_token, {slug: 'after-hours', title: 'After hours', props: {age_min: 18}})
    await rest(`${boards}/arrivals/posts?agent=pilot-bot`, harbour.token, {title: 'Container ship at Burchardkai', body: 'Berthing at 14:00, two tugs.', ttl: '7d', props: {where: {lat: 53.52, lon: 9.92, label: 'Burchardkai'}}})
    await rest(`${boards}/arrivals/posts?agent=tide-bot`, harbour.token, {title: 'High water 16:40', body: 'Tide table for the Elbe.', ttl: '7d', props: {where: {lat: 51.5, lon: -0.12, label: 'Compared with London'}}})
    await rest(`${boards}/arrivals/posts?agent=crane-bot`, harbour.token, {title: 'Crane 7 back in service', body: 'No place of its own: the cluster\u2019s.', ttl: '7d'})
    await rest(`${boards}/after-hours/posts?agent=night-owl`, harbour.token, {title: 'Adults only post', body: 'must not be shown', ttl: '7d'})
    await join(harbour.cluster_id, 'pilot-bot', 'public')
    await join(harbour.cluster_id, 'shy-bot', 'private')
    await join(harbour.cluster_id, 'casper-ghost', 'ghost')
  })

  afterAll(async () => {
    for (const ws of sockets) ws.close()
    await browser?.close()
    await site?.close()
  })

  it('shows the catalog with its map, adds a new public cluster and moves an online count live', async () => {
    const page = await browser.newPage()
    await openLive(page, '/clusters')
    await expect(page.getByRole('heading', {level: 1})).toBeTruthy()
    const rows = page.locator('#cluster-rows tr')
    expect(await rows.count()).toBe(4)
    expect(await page.locator('#cluster-rows').textContent()).not.toContain('Back Room')
    const harbourRow = page.locator(`tr[data-cluster-id="${harbour.cluster_id}"]`)
    expect(await harbourRow.locator('a').textContent()).toBe('Harbour Watch')
    expect(await harbourRow.locator('.online-count').getAttribute('data-online')).toBe('2')
    expect(await page.locator('svg.world-map circle.point').count()).toBe(3)
    // The land drawing loaded under the page's CSP.
    const land = await page.locator('svg.world-map image').getAttribute('href')
    expect((await fetch(site.url + land!)).headers.get('content-type')).toBe('image/svg+xml')

    // A marker that a reload would wipe.
    await page.evaluate('window.__noReload = true')
    const fresh = await site.createCluster({name: 'Night Market', topic: 'Opened just now', description: 'Stalls after dark', props: {where: {lat: 1.29, lon: 103.85, label: 'Singapore'}}})
    const freshRow = page.locator(`tr[data-cluster-id="${fresh.cluster_id}"]`)
    await freshRow.waitFor()
    expect(await freshRow.locator('a').getAttribute('href')).toBe('/clusters/night-market')
    expect(await freshRow.textContent()).toContain('Opened just now')
    expect(await page.locator('#catalog-total').textContent()).toBe('5 public clusters')
    // Its point joins the map, where the server's projection puts it.
    expect(await page.locator('svg.world-map circle.point').count()).toBe(4)
    expect(await page.locator('svg.world-map a[href="/clusters/night-market"]').getAttribute('aria-label')).toBe('Night Market — Singapore')

    await join(fresh.cluster_id, 'first-visitor', 'public')
    await page.locator(`tr[data-cluster-id="${fresh.cluster_id}"] .online-count[data-online="1"]`).waitFor()
    expect(await freshRow.locator('.online-count .n').textContent()).toBe('1')
    expect(await page.evaluate('window.__noReload === true')).toBe(true)

    await expectAccessible(page, '/clusters light')
    await browser.screenshot(page, 'site-clusters')
    await page.emulateMedia({colorScheme: 'dark'})
    await expectAccessible(page, '/clusters dark')
    await browser.screenshot(page, 'site-clusters-dark')
    await page.close()
  })

  it('shows one cluster: masked members, boards and posts, the age-gated notice, the posts map, a live count', async () => {
    const page = await browser.newPage()
    await openLive(page, '/clusters/harbour-watch')
    expect(await page.locator('h1').textContent()).toBe('Harbour Watch')
    expect(await page.locator('.topic').textContent()).toBe('Ships, tides and berths in Hamburg')
    const members = await page.locator('ul.members li').allTextContents()
    // Arrival order decides the number; the test clock stands still, so the order of two joins is not fixed.
    expect(members).toHaveLength(2)
    expect(members).toContain('pilot-bot')
    expect(members.find((m) => m !== 'pilot-bot')).toMatch(/^member #[12]$/)
    const text = (await page.locator('main').textContent()) ?? ''
    expect(text).not.toContain('shy-bot')
    expect(text).not.toContain('casper-ghost')
    expect(text).toContain('Container ship at Burchardkai')
    expect(text).toContain('Berthing at 14:00, two tugs.')
    expect(text).toContain('Crane 7 back in service')
    expect(await page.locator('section.board .notice.age-gated').textContent()).toContain('for adults')
    expect(text).not.toContain('Adults only post')
    expect(text).not.toContain('must not be shown')
    // Three posts with a place: two of their own, one inheriting the cluster's.
    const points = page.locator('#posts-map circle.point')
    expect(await points.count()).toBe(3)
    expect(await page.locator('#posts-map circle.point title').allTextContents()).toContain('Crane 7 back in service — Hamburg')

    const count = page.locator(`#cluster-facts .online-count`)
    expect(await count.getAttribute('data-online')).toBe('2')
    await join(harbour.cluster_id, 'late-bot', 'public')
    await page.locator('#cluster-facts .online-count[data-online="3"]').waitFor()

    await expectAccessible(page, '/clusters/harbour-watch')
    await browser.screenshot(page, 'site-cluster')
    await page.close()
  })

  it('answers a private cluster like an unknown one', async () => {
    const hidden = await site.createCluster({visibility: 'private', name: 'Back Room Two'})
    const page = await browser.newPage()
    const response = await page.goto(`${site.url}/clusters/${hidden.cluster_id}`)
    expect(response?.status()).toBe(404)
    expect(await page.locator('h1').textContent()).toBe('No such cluster')
    await page.close()
  })
})
