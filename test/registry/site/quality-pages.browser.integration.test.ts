/**
 * Issue 12, deliverable 5 (quality), on every page of the site in a real
 * Chromium, light and dark: no serious or critical axe-core violation, the
 * site's CSP header and no CSP violation or console error under it, a page
 * under 200 KB, scripts only from `/site/`, the main content readable with
 * JavaScript off. Screenshots: test-artifacts/site-<page>-<scheme>.png.
 */
import {chromium, type Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {SITE_CSP} from '../../../src/registry/site/constants.js'
import {scanAccessibility} from '../../support/axe.js'
import {CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'
import {cspViolations, foreignScripts, MAX_PAGE_BYTES, sitePages, watchCspViolations} from './quality-checks.js'
import {seedSite, type SeededSite} from './quality-fixture.js'

let site: SiteServer
let seeded: SeededSite
let browser: TestBrowser
let noScript: Browser

beforeAll(async () => {
  site = await startSiteServer()
  seeded = await seedSite(site)
  browser = await launchBrowser({viewport: {width: 1100, height: 800}})
  noScript = await chromium.launch({executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS})
}, 60_000)

afterAll(async () => {
  await noScript?.close()
  await browser?.close()
  await site?.close()
})

// Page code as strings: the test project has no DOM types.
const LANDMARKS = `({
  'header banner': document.querySelectorAll('body > header').length,
  'nav with a label': document.querySelectorAll('nav[aria-label]').length - document.querySelectorAll('main nav[aria-label]').length,
  main: document.querySelectorAll('main').length,
  'footer contentinfo': document.querySelectorAll('body > footer').length,
  'h1 in main': Math.min(1, document.querySelectorAll('main h1').length) || 0,
})`
const BACKGROUND_LUMINANCE = `(() => {
  const [r, g, b] = getComputedStyle(document.documentElement).backgroundColor.match(/\\d+/g).map(Number)
  const lin = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
})()`

const NAMES = ['agent-online', 'agent-offline', 'network', 'network-search', 'clusters', 'cluster', 'resources', 'agent-unknown', 'cluster-unknown']

describe('every site page, light and dark', () => {
  it.each(NAMES)('%s: accessible, strict CSP, no console error, small, own scripts only', async (name) => {
    const target = sitePages(seeded).find((p) => p.name === name)!
    const problems: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('console', (message) => {
        // The browser reports the document's own 404 status as a failed load: expected on a not-found page.
        const from = message.location().url.replace(site.url, '')
        const ownStatus = target.status === 404 && from === target.path && /status of 404/.test(message.text())
        if (message.type() === 'error' && !ownStatus) errors.push(`${message.text()} (${from})`)
      })
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
      // Which request a "Failed to load resource" line was about.
      page.on('response', (res) => {
        if (res.status() >= 400 && res.url() !== site.url + target.path) errors.push(`${res.status()} for ${res.request().method()} ${res.url().replace(site.url, '')}`)
      })
      page.on('requestfailed', (req) => {
        // A live stream cut when the page closes is not a failure of the page.
        if (!/ERR_ABORTED/.test(req.failure()?.errorText ?? '')) errors.push(`request failed: ${req.url().replace(site.url, '')} ${req.failure()?.errorText}`)
      })
      await page.emulateMedia({colorScheme: scheme})
      await watchCspViolations(page)
      const response = await page.goto(site.url + target.path, {waitUntil: 'load'})
      const label = `${name} (${scheme})`
      if (!response) throw new Error(`${label}: no response`)
      const body = await response.body()
      if (response.status() !== target.status) problems.push(`${label}: status ${response.status()}, wanted ${target.status}`)
      if (response.headers()['content-security-policy'] !== SITE_CSP) problems.push(`${label}: CSP header is ${JSON.stringify(response.headers()['content-security-policy'])}`)
      if (!/^text\/html/.test(response.headers()['content-type'] ?? '')) problems.push(`${label}: content-type ${response.headers()['content-type']}`)
      if (body.length >= MAX_PAGE_BYTES) problems.push(`${label}: ${body.length} bytes (bar ${MAX_PAGE_BYTES})`)
      for (const tag of foreignScripts(body.toString('utf8'))) problems.push(`${label}: script not from /site/: ${tag}`)
      // Scripts run after load (defer) and may open streams or draw: give them a moment before scanning.
      await page.waitForTimeout(400)
      const domScripts = await page.$$eval('script', (scripts) => scripts.map((s) => s.getAttribute('src') ?? `inline: ${s.textContent?.slice(0, 60)}`))
      for (const src of domScripts) if (!src.startsWith('/site/') && !src.startsWith(`${site.url}/site/`)) problems.push(`${label}: script in the DOM: ${src}`)
      const main = (await page.locator('main').innerText()).replace(/\s+/g, ' ')
      if (!main.includes(target.shows)) problems.push(`${label}: <main> does not show "${target.shows}": ${main.slice(0, 200)}`)
      // Landmarks from the layout: one banner, navigation, main and contentinfo, and a heading to start from.
      const landmarks = (await page.evaluate(LANDMARKS)) as Record<string, number>
      for (const [what, count] of Object.entries(landmarks)) if (count !== 1) problems.push(`${label}: ${count} × ${what}, wanted 1`)
      // Dark mode follows prefers-color-scheme: the page's background is light in light, dark in dark.
      const luminance = (await page.evaluate(BACKGROUND_LUMINANCE)) as number
      if (scheme === 'light' ? luminance < 0.7 : luminance > 0.2) problems.push(`${label}: background luminance ${luminance.toFixed(2)}`)
      const axe = await scanAccessibility(page, {label})
      if (axe.rulesRun < 20) problems.push(`${label}: axe ran only ${axe.rulesRun} rules`)
      if (axe.violations.length) problems.push(axe.summary)
      for (const violation of await cspViolations(page)) problems.push(`${label}: CSP violation: ${violation}`)
      for (const error of errors) problems.push(`${label}: console error: ${error}`)
      await browser.screenshot(page, `site-${name}-${scheme}`)
      console.log(`${label}: ${body.length} bytes, axe ${axe.rulesRun} rules, ${axe.violations.length} serious/critical`)
      await page.close()
    }
    expect(problems, problems.join('\n')).toEqual([])
  })

  it.each(NAMES)('%s: the main content is readable with JavaScript off', async (name) => {
    const target = sitePages(seeded).find((p) => p.name === name)!
    const context = await noScript.newContext({javaScriptEnabled: false})
    try {
      const page = await context.newPage()
      const response = await page.goto(site.url + target.path)
      expect(response?.status()).toBe(target.status)
      expect(await page.locator('main h1').count()).toBeGreaterThan(0)
      expect((await page.locator('main').innerText()).replace(/\s+/g, ' ')).toContain(target.shows)
    } finally {
      await context.close()
    }
  })

  it('the checks themselves: under the site CSP, axe finds an unlabelled field and the watcher reports a blocked inline script', async () => {
    const page = await browser.newPage()
    const path = '/quality-self-test'
    // A page with known faults, served under the site's own CSP (intercepted: no route of the registry is changed).
    await page.route(site.url + path, (route) =>
      route.fulfill({
        status: 200,
        headers: {'content-type': 'text/html; charset=utf-8', 'content-security-policy': SITE_CSP},
        body: '<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>t</h1><input type="text"><script>document.title = "ran"</script></main></body></html>',
      }),
    )
    await watchCspViolations(page)
    await page.goto(site.url + path)
    const axe = await scanAccessibility(page)
    expect(axe.violations.map((v) => v.rule)).toContain('label')
    expect(axe.summary).toMatch(/^label \(critical\) — .+\n {4}input/m)
    expect(await cspViolations(page)).toEqual([expect.stringMatching(/^script-src-elem blocked inline/)])
    expect(await page.title()).toBe('t')
    await page.close()
  })
})
