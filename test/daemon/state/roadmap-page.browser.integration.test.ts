/**
 * Issue 20 deliverable 6 (and issue 22: the IDE's Roadmap view, static):
 * `.mesh/architect/roadmap.html`, written by the daemon, opened from disk
 * (`file://`) in a real Chromium: the initiatives and their tasks, a hostile
 * task title (a script, a handler, a closing script tag, bidi overrides) and
 * a hostile initiative stay inert text, the page has no script and asks for
 * nothing over the network, and it follows the state after a change.
 * Screenshot: test-artifacts/architect-roadmap.png.
 */
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launchBrowser, type TestBrowser, WATCH_CSP} from '../../support/browser.js'
import {frontmatter, INITIATIVE_BODY, makeRepo, taskFile, TODAY} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents, type EventRecorder} from '../watch/recorder.js'

const HOSTILE_TITLE = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b> \u202Egnp.exe'
const HOSTILE_SHOWN = '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b> gnp.exe'

let harness: DaemonHarness
let events: EventRecorder
let browser: TestBrowser
let pageUrl: string

beforeAll(async () => {
  harness = await startHarness({
    repo: makeRepo({
      '.mesh/modules/api/tasks/API2-login.md': taskFile({id: 'API2', title: 'Login route', status: 'active', priority: 'high', initiative: 'launch'}),
      '.mesh/modules/api/tasks/API3-evil.md': taskFile({id: 'API3', title: HOSTILE_TITLE, status: 'blocked', priority: 'critical'}),
      '.mesh/modules/api/tasks/API4-later.md': taskFile({id: 'API4', title: 'Later, maybe', status: 'draft', priority: 'low', initiative: 'launch'}),
      '.mesh/modules/api/tasks/API5-after.md': taskFile({id: 'API5', title: 'After login', status: 'backlog', depends_on: ['API2']}),
      '.mesh/roadmap/initiatives/evil.md': frontmatter({id: 'evil', title: '<svg onload="window.__pwned = 3">', status: 'active', owner: 'architect', created: TODAY, updated: TODAY}, INITIATIVE_BODY),
    }),
  })
  events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
  pageUrl = pathToFileURL(join(harness.repo.root, '.mesh', 'architect', 'roadmap.html')).href
  browser = await launchBrowser({viewport: {width: 1300, height: 800}})
}, 60_000)

afterAll(async () => {
  events?.stop()
  await browser?.close()
  await harness?.close()
})

/** The roadmap as drawn: each section's heading and its task rows (status by id), done ids, and the text of the hostile task. */
const READ_ROADMAP = `(() => ({
  sections: [...document.querySelectorAll('section.initiative')].map((section) => ({
    heading: section.querySelector('h2').textContent,
    tasks: Object.fromEntries([...section.querySelectorAll('tr[data-task]')].map((row) => [row.dataset.task, row.children[2].textContent])),
    done: [...section.querySelectorAll('.done-line a')].map((link) => link.textContent),
  })),
  evil: document.querySelector('[data-task="API3"] .title')?.textContent,
  injected: document.querySelectorAll('main img, main b, main script, main svg:not(.graph svg), main svg svg').length,
  scripts: document.querySelectorAll('script').length,
  pwned: window.__pwned ?? null,
  title: document.title,
}))()`

async function openPage() {
  const page = await browser.newPage()
  const requests: string[] = []
  const dialogs: string[] = []
  page.on('request', (request) => void requests.push(request.url()))
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.addInitScript(WATCH_CSP)
  await page.goto(pageUrl, {waitUntil: 'load'})
  return {page, requests, dialogs}
}

describe('the cached roadmap page', () => {
  it('opens from disk and shows the initiatives and their tasks; hostile text stays text; no script, no network', async () => {
    const {page, requests, dialogs} = await openPage()
    const roadmap = (await page.evaluate(READ_ROADMAP)) as any
    await browser.screenshot(page, 'architect-roadmap')
    expect(roadmap.sections).toEqual([
      {heading: '#evil <svg onload="window.__pwned = 3"> active', tasks: {}, done: []},
      {heading: '#launch Launch active', tasks: {API4: 'draft', API2: 'active'}, done: []},
      {heading: 'Without an initiative 3', tasks: {API5: 'backlog', API1: 'next', API3: 'blocked'}, done: []},
    ])
    expect(roadmap.evil).toBe(HOSTILE_SHOWN)
    expect(roadmap).toMatchObject({injected: 0, scripts: 0, pwned: null, title: 'Demo · roadmap'})
    expect(await page.locator('[data-task="API5"] .waiting').innerText()).toBe('API2')
    expect(dialogs).toEqual([])
    expect(await page.evaluate('window.__cspViolations')).toEqual([])
    // The page itself, and nothing else: no server, no network.
    expect(requests).toEqual([pageUrl])
    expect(browser.console.filter((line) => line.startsWith('error') || line.startsWith('pageerror'))).toEqual([])
    await page.close()
  })

  it('follows the state: a task moved on disk shows its new status after the rebuild', async () => {
    const seen = new Set(events.of('state.rebuilt'))
    writeFileSync(join(harness.repo.root, '.mesh', 'modules', 'api', 'tasks', 'API2-login.md'), taskFile({id: 'API2', title: 'Login route', status: 'done', priority: 'high', initiative: 'launch'}))
    await events.waitFor((e) => e.type === 'state.rebuilt' && !seen.has(e) && e.data.causes.includes('modules/api/tasks/API2-login.md'), 'the rebuild')
    expect(readFileSync(join(harness.repo.root, '.mesh', 'architect', 'roadmap.html'), 'utf8')).toContain('1 of 2 done (50%)')
    const {page} = await openPage()
    const roadmap = (await page.evaluate(READ_ROADMAP)) as any
    expect(roadmap.sections[1]).toEqual({heading: '#launch Launch active', tasks: {API4: 'draft'}, done: ['API2']})
    await browser.screenshot(page, 'architect-roadmap-after-move')
    await page.close()
  })
})
