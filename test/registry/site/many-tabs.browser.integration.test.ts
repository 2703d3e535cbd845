/**
 * Issue 21: many tabs of the site in one browser. A browser opens at most six
 * HTTP/1.1 connections to a host; when every page held its own event stream,
 * a seventh tab never loaded. Ten pages (agent pages, the network, the
 * catalog, a cluster) open together in one browser context must all load and
 * all follow their live events, while the server sees one event stream from
 * that browser: through the SharedWorker (live.js), through a tab elected
 * over Web Locks where there is no SharedWorker (and another taking over when
 * it closes), and again after the registry restarts on the same address.
 * Screenshots: test-artifacts/site-many-tabs.png, site-many-tabs-elected.png.
 */
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'

const AGENTS = ['tab-1', 'tab-2', 'tab-3', 'tab-4', 'tab-5']
// A deadline, not a measure: ten renderers starting at once on a busy 2-core machine take seconds.
const LOAD_MS = 60_000
const TEST_MS = 300_000

let site: SiteServer
let clusterId: string
const keys = new Map<string, string>()
const browsers: TestBrowser[] = []
const sockets: WebSocket[] = []

/** The event streams the server has open now, the most it had open at once, and how many it was asked for, by path. */
interface StreamCount {
  open: number
  max: number
  total: number
  paths: Set<string>
}

const newCount = (): StreamCount => ({open: 0, max: 0, total: 0, paths: new Set()})
/** What the running registry counts into; a test starts its own count. */
let streams = newCount()

/** Counts every event stream from the registry's first request on (a stream the browser reopens at once is counted too). */
function watch(request: IncomingMessage, response: ServerResponse) {
  const path = (request.url ?? '').split('?')[0]
  if (!path.endsWith('/events')) return
  const count = streams
  count.open += 1
  count.total += 1
  count.max = Math.max(count.max, count.open)
  count.paths.add(path)
  response.once('close', () => {
    count.open -= 1
  })
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50))
  if (!check()) throw new Error(`never: ${what}`)
}

async function tokenCall(agentId: string) {
  const response = await fetch(`${site.url}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: agentId, api_key: keys.get(agentId)})})
  if (!response.ok) throw new Error(`token ${agentId}: ${response.status}`)
}

/** A fresh registry (on `port` when given) with five online agents and one public cluster. */
async function startRegistry(port?: number) {
  streams = newCount()
  site = await startSiteServer({}, {port, watch})
  for (const [i, id] of AGENTS.entries()) {
    const {api_key, token} = await site.register(id)
    keys.set(id, api_key)
    await tokenCall(id)
    await site.pushCard(token, {name: `Tab agent ${i + 1}`, brand: 'acme', category: 'media.image', description: 'An agent opened in many tabs.'})
  }
  clusterId = (await site.createCluster({name: 'Harbour Watch', topic: 'Ships and tides', props: {where: {lat: 53.54, lon: 9.97, label: 'Hamburg'}}})).cluster_id
}

/**
 * Ten pages of the site in one browser context, opened one after another as a person opens tabs,
 * each live before the next: all must load (with a stream per page the seventh never did).
 */
async function openTen(browser: TestBrowser): Promise<Page[]> {
  const paths = [...AGENTS.map((id) => `/agent/${id}`), '/network', '/network', '/clusters', '/clusters', `/clusters/${clusterId}`]
  const pages: Page[] = []
  for (const path of paths) {
    const page = await browser.newPage()
    const answer = await page.goto(site.url + path, {waitUntil: 'load', timeout: LOAD_MS})
    expect(answer?.status(), path).toBe(200)
    await waitLive([page])
    pages.push(page)
  }
  return pages
}

const path = (page: Page) => new URL(page.url()).pathname

/** Every page follows the shared stream; the clusters pages were greeted (`ready`), latecomers too. */
async function waitLive(pages: Page[]) {
  for (const page of pages) {
    await page.waitForSelector('html[data-stream="open"]', {timeout: LOAD_MS})
    if (path(page).startsWith('/clusters')) await page.waitForSelector('body[data-live="on"]', {timeout: LOAD_MS})
  }
}

/** Each agent page and network page shows the agents' state as it is now, without a reload. */
async function expectAgentsShown(pages: Page[], online: boolean) {
  for (const page of pages) {
    const where = path(page)
    if (where.startsWith('/agent/')) await page.waitForSelector(`[data-agent-state] .state.${online ? 'online' : 'offline'}`, {timeout: LOAD_MS})
    if (where === '/network') for (const id of AGENTS) await page.waitForSelector(`#agent-list li.agent[data-agent-id="${id}"][data-online="${online}"]`, {timeout: LOAD_MS})
  }
}

/**
 * A new public cluster appears on each catalog page; a member joining the cluster the pages show
 * moves its online count (not after a restart: the new registry has other clusters).
 */
async function expectClusterChanges(pages: Page[], name: string, options: {join: boolean}) {
  await site.createCluster({name, topic: 'Arrived while the tabs were open'})
  for (const page of pages) if (path(page) === '/clusters') await page.locator('#cluster-rows tr', {hasText: name}).waitFor({timeout: LOAD_MS})
  if (!options.join) return
  const ws = new WebSocket(`${site.url.replace('http', 'ws')}/v1/clusters/${clusterId}/ws?agent=${name.toLowerCase().replace(/\W+/g, '-')}&vis=public`)
  sockets.push(ws)
  await new Promise((resolve, reject) => ws.once('message', resolve).once('error', reject))
  const online = sockets.filter((socket) => socket.readyState === WebSocket.OPEN && socket.url.includes(clusterId)).length
  for (const page of pages) {
    if (path(page).startsWith('/clusters')) await page.waitForSelector(`.online-count[data-cluster-id="${clusterId}"][data-online="${online}"]`, {timeout: LOAD_MS})
  }
}

beforeAll(async () => {
  await startRegistry()
})

afterAll(async () => {
  for (const socket of sockets) socket.close()
  for (const browser of browsers) await browser.close()
  await site?.close()
})

describe('ten tabs of the site in one browser', () => {
  let browser: TestBrowser
  let pages: Page[]

  it('all load and all follow their live events through one stream, relayed by a SharedWorker', async () => {
    streams = newCount()
    browser = await launchBrowser({viewport: {width: 1100, height: 800}})
    browsers.push(browser)
    pages = await openTen(browser)
    expect(await Promise.all(pages.map((page) => page.getAttribute('html', 'data-live-relay')))).toEqual(pages.map(() => 'worker'))

    site.advance(5 * 60_000 + 1)
    expect((await site.server.registry.sweep()).sort()).toEqual(AGENTS)
    await expectAgentsShown(pages, false)
    for (const id of AGENTS) await tokenCall(id)
    await expectAgentsShown(pages, true)
    await expectClusterChanges(pages, 'Arrived Live', {join: true})

    expect([...streams.paths]).toEqual(['/site/events'])
    expect(streams.max).toBe(1)
    expect(streams.total).toBe(1)
    await browser.screenshot(pages[7], 'site-many-tabs')
  }, TEST_MS)

  it('comes back after the registry restarts on the same address', async () => {
    const port = site.hosted.port
    await site.close()
    for (const page of pages) await page.waitForSelector('html[data-stream="closed"]', {timeout: LOAD_MS})
    await startRegistry(port)
    // The relay reconnects by itself (the stream's `retry:`), and the catalog greets it anew.
    await waitLive(pages)
    await expectClusterChanges(pages, 'After Restart', {join: false})
    site.advance(5 * 60_000 + 1)
    await site.server.registry.sweep()
    await expectAgentsShown(pages, false)
    expect(streams.max).toBe(1)
    for (const page of pages) await page.close()
    await until(() => streams.open === 0, 'the worker closed its stream after the last tab left')
  }, TEST_MS)
})

describe('ten tabs in a browser without SharedWorker', () => {
  it('elect one tab to hold the stream and relay it over a BroadcastChannel; another takes over when it closes', async () => {
    streams = newCount()
    const browser = await launchBrowser({viewport: {width: 1100, height: 800}})
    browsers.push(browser)
    await browser.context.addInitScript('delete globalThis.SharedWorker')
    const pages = await openTen(browser)
    const roles = async (open: Page[]) => Promise.all(open.map((page) => page.getAttribute('html', 'data-live-relay')))
    expect((await roles(pages)).sort()).toEqual([...Array(9).fill('follower'), 'leader'])
    expect(streams.max).toBe(1)

    for (const id of AGENTS) await tokenCall(id)
    await expectAgentsShown(pages, true)
    await expectClusterChanges(pages, 'Elected Relay', {join: true})
    await browser.screenshot(pages[5], 'site-many-tabs-elected')
    expect(streams.max).toBe(1)

    // The leader closes: a follower takes the lock and opens the stream; the others keep following.
    const leader = pages[(await roles(pages)).indexOf('leader')]
    const rest = pages.filter((page) => page !== leader)
    await leader.close()
    await until(() => streams.total === 2 && streams.open === 1, 'a new leader opened the one stream')
    const after = await roles(rest)
    expect(after.filter((role) => role === 'leader')).toHaveLength(1)
    await waitLive(rest)
    site.advance(5 * 60_000 + 1)
    await site.server.registry.sweep()
    await expectAgentsShown(rest, false)
    await expectClusterChanges(rest, 'New Leader', {join: true})
    expect(streams.open).toBe(1)
  }, TEST_MS)
})
