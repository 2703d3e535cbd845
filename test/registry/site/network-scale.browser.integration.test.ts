/**
 * /network with 5,000 agents (40 brands, 8 categories each, 70 % online) on
 * an in-memory registry: what the server spends on the page, graph.json and
 * the model's start, and, in Chromium, drawing and animating every agent on
 * one canvas and highlighting a search. Timings are printed, not asserted
 * (machines differ); the test asserts what a person must see.
 * Screenshot: test-artifacts/site-network-5000.png.
 */
import {randomBytes} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {serve, type HostedServer} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createRegistryContext} from '../../../src/registry/context.js'
import {createRegistry} from '../../../src/registry/registry.js'
import {createSearchPart} from '../../../src/registry/search/part.js'
import {createSitePart} from '../../../src/registry/site/part.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {ARTIFACTS_DIR, launchBrowser, type TestBrowser} from '../../support/browser.js'

const AGENTS = 5000
const NOW = Date.UTC(2026, 5, 15, 12, 0, 0)
const CATEGORIES = ['media.image', 'media.audio', 'text.summarize', 'text.translate', 'data.weather', 'data.finance', 'code.review', 'code.generate']

let hosted: HostedServer
let browser: TestBrowser
let modelStartMs = 0

const ms = (from: number) => performance.now() - from
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

beforeAll(async () => {
  const store = createMemoryRegistryStore()
  for (let i = 0; i < AGENTS; i++) {
    const id = `agent-${String(i).padStart(5, '0')}`
    const brand = `brand-${String(i % 40).padStart(2, '0')}`
    const category = CATEGORIES[Math.floor(i / 40) % CATEGORIES.length]
    await store.createAgent({agentId: id, apiKeyHash: '0'.repeat(64), pubkey: null, endpoint: null, capabilities: [category.split('.')[1]], createdAtMs: NOW})
    const card = {name: `${brand} ${category} ${i}`, brand, category, description: `${category.replace('.', ' ')} agent number ${i}`, tags: [category.split('.')[1]]}
    await store.updateAgent(id, {agentCard: card, displayName: card.name, brand})
    if (i % 10 < 7) await store.touchAgent(id, NOW - 60_000)
  }
  const context = createRegistryContext({store, bus: createLocalBus(), clock: () => NOW, logger: silentLogger, publicUrl: 'http://127.0.0.1', jwtSecret: randomBytes(32), adminKey: 'admin-' + 'k'.repeat(40), limits: {perIpPerMinute: 1_000_000}})
  const search = createSearchPart(context, {resyncMs: 0})
  const site = createSitePart(context, {search: search.service})
  const timedSite = {
    ...site,
    async start() {
      const started = performance.now()
      await site.start?.()
      modelStartMs = ms(started)
    },
  }
  const registry = createRegistry({context, parts: [search, timedSite], sweepIntervalMs: 3_600_000})
  hosted = await serve({services: [registry], logger: silentLogger, port: 0})
  browser = await launchBrowser({viewport: {width: 1200, height: 900}})
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await hosted?.stop()
})

describe('/network with 5,000 agents', () => {
  it('serves the page and graph.json from the model (timings printed)', async () => {
    const timed = async (path: string) => {
      const started = performance.now()
      const response = await fetch(hosted.url + path, {headers: {accept: 'text/html'}})
      const body = await response.text()
      return {ms: ms(started), body, status: response.status, encoding: response.headers.get('content-encoding'), bytes: Number(response.headers.get('content-length'))}
    }
    const firstGraph = await timed('/network/graph.json')
    const graphRuns = [] as number[]
    for (let i = 0; i < 5; i++) graphRuns.push((await timed('/network/graph.json')).ms)
    const pageRuns = [] as number[]
    let page = ''
    for (let i = 0; i < 5; i++) {
      const run = await timed('/network')
      pageRuns.push(run.ms)
      page = run.body
    }
    const searchRuns = [] as number[]
    for (let i = 0; i < 5; i++) searchRuns.push((await timed('/network?q=weather+forecast')).ms)
    const graph = JSON.parse(firstGraph.body) as {agents: number; online: number; nodes: unknown[]; groups: unknown[]}
    console.log(
      [
        `[network 5000] model start (load 5,000 agents + subscribe): ${modelStartMs.toFixed(1)} ms`,
        `[network 5000] graph.json first (layout + serialize): ${firstGraph.ms.toFixed(1)} ms, then median ${median(graphRuns).toFixed(1)} ms; ${(firstGraph.body.length / 1024).toFixed(0)} KB (${firstGraph.encoding}: ${(firstGraph.bytes / 1024).toFixed(0)} KB), ${graph.groups.length} groups`,
        `[network 5000] GET /network median ${median(pageRuns).toFixed(1)} ms (${(page.length / 1024).toFixed(0)} KB); with ?q= median ${median(searchRuns).toFixed(1)} ms`,
      ].join('\n'),
    )
    expect(graph).toMatchObject({agents: AGENTS, online: 3500})
    expect(graph.nodes).toHaveLength(AGENTS)
    expect(graph.groups).toHaveLength(40 + 40 * CATEGORIES.length)
    expect(page).toMatch(/<strong data-count="agents">5,000<\/strong> agents · <strong data-count="online">3,500<\/strong> online/)
    expect([...page.matchAll(/<li class="agent" /g)]).toHaveLength(50)
  })

  it('draws and animates every agent in the browser and highlights a search (timings printed)', async () => {
    const page = await browser.newPage()
    const started = performance.now()
    await page.goto(`${hosted.url}/network`)
    await page.waitForSelector('#network-graph.ready')
    const readyMs = ms(started)
    expect(await page.getAttribute('#network-graph', 'data-nodes')).toBe(String(AGENTS))
    await page.locator('#network-graph').screenshot({path: `${ARTIFACTS_DIR}site-network-5000-graph.png`})
    // Frames the pulse animation got in one second.
    const frames = (await page.evaluate(`new Promise((resolve) => {
      let n = 0
      const end = performance.now() + 1000
      const tick = (t) => (t < end ? (n++, requestAnimationFrame(tick)) : resolve(n))
      requestAnimationFrame(tick)
    })`)) as number
    await page.fill('#network-q', 'weather forecast')
    await page.click('form.network-search button[type="submit"]')
    await page.waitForSelector('#network-graph[data-highlight-ms]')
    const highlightMs = Number(await page.getAttribute('#network-graph', 'data-highlight-ms'))
    console.log(`[network 5000] browser: load → graph drawn ${readyMs.toFixed(0)} ms; ${frames} frames/s while pulsing; search submit → highlight ${highlightMs.toFixed(1)} ms (bar 200 ms)`)
    expect(await page.locator('#network-results li.result').count()).toBe(20)
    await browser.screenshot(page, 'site-network-5000')
    await page.close()
  })
})
