/**
 * Issue 12 bar: a hostile card (script tags, `javascript:` URLs, bidi
 * overrides, 16 KB of text) and a hostile public cluster render inert on
 * every page, in a real Chromium after the pages' own scripts ran (live
 * updates, graph and map drawing included): no dialog, no injected script,
 * link or handler, no bidi control in what a person reads, under 200 KB.
 * Screenshots: test-artifacts/site-hostile-<page>.png.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'
import {hostilePages, htmlProblems, seedHostile, type SeededHostile} from './hostile-fixture.js'
import {cspViolations, MAX_PAGE_BYTES, watchCspViolations} from './quality-checks.js'
import {seedSite} from './quality-fixture.js'

let site: SiteServer
let seeded: SeededHostile
let browser: TestBrowser

beforeAll(async () => {
  site = await startSiteServer()
  // A few ordinary agents and clusters around the hostile ones, as on a real registry.
  await seedSite(site, 4)
  seeded = await seedHostile(
    async (method, path, body, headers = {}) => {
      const response = await fetch(site.url + path, {method, headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)})
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return JSON.parse(text)
    },
    site.server.registry.context.store,
    site.now(),
  )
  browser = await launchBrowser({viewport: {width: 1100, height: 800}})
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** The live DOM's injected pieces (page code as a string: the test project has no DOM types). */
const DOM_PROBLEMS = `(() => {
  const problems = []
  for (const s of document.querySelectorAll('script')) {
    const src = s.getAttribute('src') || ''
    if (!src.startsWith('/site/') && !src.startsWith(location.origin + '/site/')) problems.push('script: ' + s.outerHTML.slice(0, 120))
  }
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      if (/^on/i.test(a.name)) problems.push('handler ' + a.name + ' on <' + el.localName + '>')
      if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(a.name) && /^\\s*(javascript|data|vbscript):/i.test(a.value)) problems.push(a.name + '=' + a.value.slice(0, 60) + ' on <' + el.localName + '>')
      if (/[\\u202A-\\u202E\\u2066-\\u2069]/.test(a.value)) problems.push('bidi control in ' + a.name + ' of <' + el.localName + '>')
    }
  }
  for (const el of document.querySelectorAll('iframe, object, embed, frame, base')) problems.push('element <' + el.localName + '>')
  const text = document.title + document.body.innerText + document.body.textContent
  const bidi = text.search(/[\\u202A-\\u202E\\u2066-\\u2069]/)
  if (bidi >= 0) problems.push('bidi control in the text: …' + text.slice(Math.max(0, bidi - 60), bidi))
  return problems
})()`

describe('a hostile card and cluster render inert', () => {
  it.each(['agent', 'network', 'network-search', 'clusters', 'cluster', 'resources'])('%s', async (name) => {
    const target = hostilePages(seeded).find((p) => p.name === name)!
    const page = await browser.newPage()
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`)
      void dialog.dismiss()
    })
    await watchCspViolations(page)
    const response = await page.goto(site.url + target.path, {waitUntil: 'load'})
    expect(response?.status()).toBe(200)
    const body = (await response!.body()).toString('utf8')
    // Live scripts run after load: let them draw and open their streams, then hover and focus what they made.
    await page.waitForTimeout(500)
    for (const link of (await page.locator('main a').all()).slice(0, 30)) await link.hover({timeout: 1000}).catch(() => undefined)
    await page.keyboard.press('Tab')
    await browser.screenshot(page, `site-hostile-${name}`)
    const problems = [
      ...dialogs.map((d) => `dialog ${d}`),
      ...htmlProblems(body).map((p) => `served HTML: ${p}`),
      ...((await page.evaluate(DOM_PROBLEMS)) as string[]).map((p) => `DOM: ${p}`),
      ...(await cspViolations(page)).map((v) => `CSP violation: ${v}`),
    ]
    // The hostile text is really on the page, as text a person reads.
    if (!(await page.locator('main').innerText()).includes(target.shows)) problems.push(`<main> does not show ${JSON.stringify(target.shows)} as text`)
    if (Buffer.byteLength(body) >= MAX_PAGE_BYTES) problems.push(`${Buffer.byteLength(body)} bytes (bar ${MAX_PAGE_BYTES})`)
    console.log(`hostile ${name}: ${Buffer.byteLength(body)} bytes, ${problems.length} problems`)
    await page.close()
    expect(problems, problems.join('\n')).toEqual([])
  })
})
