/**
 * Issue 12 quality at a scale where the lists are paged: 120 agents and 60
 * public clusters, so `/network` and `/clusters` show their pagers and second
 * pages. Each, light and dark: no serious or critical axe violation, the
 * layout's landmarks, under 200 KB. Screenshots: site-scale-<page>-<scheme>.png.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {scanAccessibility} from '../../support/axe.js'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'
import {MAX_PAGE_BYTES} from './quality-checks.js'
import {discoveryCard, seedAgent, seedCluster} from './quality-fixture.js'

const AGENTS = 120
const CLUSTERS = 60

let site: SiteServer
let browser: TestBrowser

beforeAll(async () => {
  site = await startSiteServer({relayLimits: {creationsPerIp: 1000}})
  for (let i = 0; i < CLUSTERS; i++) {
    // Two posts a cluster; the boards part takes 60 a minute from one address, so the clock moves on.
    if (i % 25 === 24) site.advance(61_000)
    await seedCluster(site, {name: `Place ${i}`, topic: `#t${i % 7}`, description: `Public cluster ${i}.`, lat: (i % 140) - 70, lon: ((i * 37) % 340) - 170}, {title: `News ${i}`, body: `Post of cluster ${i}.`})
  }
  for (let i = 0; i < AGENTS; i++) await seedAgent(site, `scale-${i}`, discoveryCard(i))
  browser = await launchBrowser({viewport: {width: 1100, height: 800}})
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

const PAGES: Array<{name: string; path: string; next?: boolean}> = [
  {name: 'network', path: '/network'},
  {name: 'network-page-2', path: '/network', next: true},
  {name: 'network-search-many', path: '/network?q=agent'},
  {name: 'clusters', path: '/clusters'},
  {name: 'clusters-page-2', path: '/clusters', next: true},
]

describe(`paged pages with ${AGENTS} agents and ${CLUSTERS} public clusters`, () => {
  it.each(PAGES.map((p) => p.name))('%s: accessible in light and dark, under 200 KB, with its pager', async (name) => {
    const target = PAGES.find((p) => p.name === name)!
    const problems: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage()
      await page.emulateMedia({colorScheme: scheme})
      let response = await page.goto(site.url + target.path, {waitUntil: 'load'})
      // The first page links the next one; its pager is a labelled navigation.
      const pager = page.locator('main nav[aria-label]')
      if (target.path !== '/network?q=agent' && (await pager.count()) !== 1) problems.push(`${name} (${scheme}): ${await pager.count()} labelled pagers in <main>`)
      if (target.next) {
        const next = page.locator('main nav[aria-label] a[rel="next"], main nav[aria-label] a:has-text("Next")').first()
        ;[response] = await Promise.all([page.waitForNavigation(), next.click()])
      }
      const body = await response!.body()
      if (response!.status() !== 200) problems.push(`${name} (${scheme}): status ${response!.status()}`)
      if (body.length >= MAX_PAGE_BYTES) problems.push(`${name} (${scheme}): ${body.length} bytes`)
      await page.waitForTimeout(300)
      const axe = await scanAccessibility(page, {label: `${name} (${scheme})`})
      if (axe.violations.length) problems.push(axe.summary)
      await browser.screenshot(page, `site-scale-${name}-${scheme}`)
      console.log(`${name} (${scheme}): ${page.url().replace(site.url, '')} ${body.length} bytes, ${axe.violations.length} serious/critical`)
      await page.close()
    }
    expect(problems, problems.join('\n')).toEqual([])
  })
})
