/**
 * The /network page in a real Chromium: the list and the graph of ~30
 * agents in several brands and categories, the search highlighted in place
 * (the time from submit to highlight is reported, not asserted), an agent
 * dimming without a reload after the offline sweep, a new agent appearing
 * live. Screenshots: test-artifacts/site-network.png, site-network-dark.png.
 */
import {chromium, type Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {scanAccessibility} from '../../support/axe.js'
import {ARTIFACTS_DIR, CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'

const BRANDS = ['acme', 'globex', 'initech', 'umbrella']
const CATEGORIES: Array<[string, string]> = [
  ['media.image', 'paints pictures from a text prompt'],
  ['text.summarize', 'summarizes long documents into short notes'],
  ['data.weather', 'weather forecast for any city, hourly'],
  ['code.review', 'reviews pull requests and finds bugs'],
]

let site: SiteServer
let browser: TestBrowser
const keys = new Map<string, string>()

async function tokenCall(agentId: string) {
  const response = await fetch(`${site.url}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: agentId, api_key: keys.get(agentId)})})
  if (!response.ok) throw new Error(`token ${agentId}: ${response.status}`)
}

async function seed(id: string, brand: string, [category, description]: [string, string], name: string) {
  const {api_key, token} = await site.register(id)
  keys.set(id, api_key)
  await tokenCall(id)
  await site.pushCard(token, {name, brand, category, description, tags: [category.split('.')[1]]})
}

beforeAll(async () => {
  site = await startSiteServer()
  for (let i = 0; i < 30; i++) {
    const brand = BRANDS[i % BRANDS.length]
    const category = CATEGORIES[Math.floor(i / 2) % CATEGORIES.length]
    await seed(`agent-${String(i).padStart(2, '0')}`, brand, category, `${brand} ${category[0].split('.')[1]} ${i}`)
  }
  browser = await launchBrowser({viewport: {width: 1200, height: 900}})
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

async function openNetwork(scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage()
  await page.emulateMedia({colorScheme: scheme})
  await page.goto(`${site.url}/network`)
  await page.waitForSelector('#network-graph.ready')
  await page.waitForSelector('#network-graph[data-live="true"]')
  return page
}

describe('/network in a browser', () => {
  it('shows the list and the graph, highlights a search in place, dims an agent after the sweep and adds a new one without a reload', async () => {
    const page = await openNetwork()
    expect(await page.textContent('#network-counts')).toMatch(/30\s+agents · 30\s+online/)
    expect(await page.locator('#agent-list li.agent').count()).toBe(30)
    expect(await page.locator('#agent-list li.agent[data-online="true"]').count()).toBe(30)
    expect(await page.getAttribute('#network-graph', 'data-nodes')).toBe('30')
    expect(await page.getAttribute('#network-graph canvas', 'aria-label')).toMatch(/Graph of the registry's agents/)
    // The canvas is drawn: some of its pixels are painted.
    const painted = await page.evaluate(`(() => {
      const canvas = document.querySelector('#network-graph canvas')
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data
      let n = 0
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++
      return n
    })()`)
    expect(painted).toBeGreaterThan(1000)

    // Hovering an agent's dot names it and links to its page.
    const graph = (await (await fetch(`${site.url}/network/graph.json`)).json()) as {width: number; nodes: Array<{id: string; name: string; x: number; y: number}>}
    const box = (await page.locator('#network-graph canvas').boundingBox())!
    const target = graph.nodes.find((node) => node.id === 'agent-07')!
    const scale = box.width / graph.width
    await page.mouse.move(box.x + target.x * scale, box.y + target.y * scale)
    await page.waitForSelector('.graph-tip:not([hidden])')
    expect(await page.textContent('.graph-tip strong')).toBe(target.name)
    expect(await page.getAttribute('.graph-tip a', 'href')).toBe('/agent/agent-07')
    await page.mouse.move(box.x + 2, box.y + 2)

    // Search in place: the results are shown and ringed in the graph and the list.
    await page.evaluate('window.__sameDocument = true')
    await page.fill('#network-q', 'weather forecast')
    await page.click('form.network-search button[type="submit"]')
    await page.waitForSelector('#network-graph[data-highlight-ms]')
    const highlightMs = Number(await page.getAttribute('#network-graph', 'data-highlight-ms'))
    console.log(`[network] search submit → highlight: ${highlightMs.toFixed(1)} ms (bar 200 ms, reported)`)
    const weather = ['agent-04', 'agent-05', 'agent-12', 'agent-13', 'agent-20', 'agent-21', 'agent-28', 'agent-29']
    const hits = await page.$$eval('#network-results li.result', (items) => items.map((item) => (item as unknown as {dataset: {agentId: string}}).dataset.agentId))
    expect([...hits].sort()).toEqual(weather)
    const marked = await page.$$eval('#agent-list li.agent.hit', (items) => items.map((item) => (item as unknown as {dataset: {agentId: string}}).dataset.agentId))
    expect(marked).toEqual(weather)
    expect(page.url()).toBe(`${site.url}/network?q=weather+forecast`)

    // Five minutes on: every agent but one makes its token call; the sweep dims that one, live.
    site.advance(5 * 60_000 + 1)
    for (const id of keys.keys()) if (id !== 'agent-03') await tokenCall(id)
    expect(await site.server.registry.sweep()).toEqual(['agent-03'])
    await page.waitForSelector('#agent-list li.agent[data-agent-id="agent-03"][data-online="false"]')
    expect(await page.textContent('#agent-list li.agent[data-agent-id="agent-03"] .state')).toMatch(/^offline · last seen/)
    expect(await page.textContent('#network-counts')).toMatch(/30\s+agents · 29\s+online/)
    expect(await page.locator('#agent-list li.agent[data-online="true"]').count()).toBe(29)

    // A new agent appears in the list and the graph.
    await seed('agent-99', 'hooli', CATEGORIES[0], 'hooli image 99')
    await page.waitForSelector('#agent-list li.agent[data-agent-id="agent-99"][data-online="true"]')
    expect(await page.textContent('#agent-list li.agent[data-agent-id="agent-99"] .name')).toBe('hooli image 99')
    await page.waitForSelector('#network-graph[data-nodes="31"]')
    expect(await page.evaluate('window.__sameDocument')).toBe(true)

    const report = await scanAccessibility(page, {label: 'network'})
    expect(report.summary).toBe('')
    await browser.screenshot(page, 'site-network-live')
    await page.close()
  })

  it('pulses online agents, and holds still for prefers-reduced-motion', async () => {
    const frames = async (page: Page) => {
      const snapshot = "document.querySelector('#network-graph canvas').toDataURL()"
      const first = await page.evaluate(snapshot)
      await page.waitForTimeout(400)
      return [first, await page.evaluate(snapshot)]
    }
    const moving = await openNetwork()
    const [a, b] = await frames(moving)
    expect(a).not.toBe(b)
    await moving.close()
    const still = await browser.newPage()
    await still.emulateMedia({reducedMotion: 'reduce'})
    await still.goto(`${site.url}/network`)
    await still.waitForSelector('#network-graph.ready')
    const [c, d] = await frames(still)
    expect(c).toBe(d)
    await still.close()
  })

  it('is whole without JavaScript: the list, the counts and a search that runs on the server', async () => {
    const noScript = await chromium.launch({executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS})
    try {
      const page = await (await noScript.newContext({javaScriptEnabled: false, viewport: {width: 1200, height: 900}})).newPage()
      await page.goto(`${site.url}/network`)
      expect(await page.locator('#agent-list li.agent').count()).toBe(31)
      expect(await page.isVisible('#network-graph')).toBe(false)
      await page.fill('#network-q', 'weather forecast')
      await page.click('form.network-search button[type="submit"]')
      await page.waitForURL(`${site.url}/network?q=weather+forecast`)
      expect(await page.locator('#network-results li.result').count()).toBe(8)
      await page.screenshot({path: `${ARTIFACTS_DIR}site-network-nojs.png`, fullPage: true})
    } finally {
      await noScript.close()
    }
  })

  it('draws in dark mode from the theme colours', async () => {
    const page = await openNetwork('dark')
    const background = await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()")
    expect(background).toBe('#121216')
    const report = await scanAccessibility(page, {label: 'network (dark)'})
    expect(report.summary).toBe('')
    await browser.screenshot(page, 'site-network-live-dark')
    await page.close()
  })
})
