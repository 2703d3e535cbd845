/**
 * Issue 20 deliverable 6: `.mesh/architect/roadmap.html`, written by the
 * daemon, opened from disk (`file://`) in a real Chromium: the tasks are shown
 * by status, a hostile task title (a script, a handler, a closing script tag,
 * bidi overrides) and a hostile initiative stay inert text, the page asks
 * for nothing over the network, and it follows the state after a change.
 * Screenshot: test-artifacts/architect-roadmap.png.
 */
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
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

/** Records CSP violations from the document's first moment (an init script runs outside the page's CSP). Page code as a string: no DOM types here. */
const WATCH_CSP = `(() => {
  const seen = []
  Object.defineProperty(window, '__cspViolations', {value: seen})
  document.addEventListener('securitypolicyviolation', (event) => seen.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline')))
})()`

/** The board as drawn: each column's status and its task ids, and the text of the hostile card. */
const READ_BOARD = `(() => ({
  columns: [...document.querySelectorAll('#board .column')].map((column) => ({status: column.getAttribute('data-status'), tasks: [...column.querySelectorAll('.task')].map((card) => card.getAttribute('data-task'))})),
  evil: document.querySelector('[data-task="API3"] .title')?.textContent,
  initiatives: [...document.querySelectorAll('#initiative-rows tr')].map((row) => row.children[1].textContent),
  injected: document.querySelectorAll('#board img, #board b, #board script, #board svg, main img, main svg, main b').length,
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
  it('opens from disk and shows the tasks by status; hostile text stays text; no network', async () => {
    const {page, requests, dialogs} = await openPage()
    const board = (await page.evaluate(READ_BOARD)) as any
    await browser.screenshot(page, 'architect-roadmap')
    expect(board.columns).toEqual([
      {status: 'draft', tasks: ['API4']},
      {status: 'backlog', tasks: ['API5']},
      {status: 'next', tasks: ['API1']},
      {status: 'active', tasks: ['API2']},
      {status: 'blocked', tasks: ['API3']},
      {status: 'done', tasks: []},
    ])
    expect(board.evil).toBe(HOSTILE_SHOWN)
    expect(board.initiatives).toEqual(['<svg onload="window.__pwned = 3">', 'Launch'])
    expect(board).toMatchObject({injected: 0, scripts: 2, pwned: null, title: 'Demo · roadmap'})
    expect(await page.locator('[data-task="API5"] .waiting').innerText()).toBe('waits on API2')
    expect(dialogs).toEqual([])
    expect(await page.evaluate('window.__cspViolations')).toEqual([])
    // The page itself, and nothing else: no server, no network.
    expect(requests).toEqual([pageUrl])
    expect(browser.console.filter((line) => line.startsWith('error') || line.startsWith('pageerror'))).toEqual([])
    await page.close()
  })

  it('the filter hides the cards that do not match', async () => {
    const {page} = await openPage()
    await page.fill('#filter', 'login')
    expect(await page.evaluate(`[...document.querySelectorAll('#board .task')].filter((card) => card.checkVisibility()).map((card) => card.getAttribute('data-task'))`)).toEqual(['API5', 'API2'])
    await page.close()
  })

  it('follows the state: a task moved on disk is in its new column after the rebuild', async () => {
    const seen = new Set(events.of('state.rebuilt'))
    writeFileSync(join(harness.repo.root, '.mesh', 'modules', 'api', 'tasks', 'API2-login.md'), taskFile({id: 'API2', title: 'Login route', status: 'done', priority: 'high', initiative: 'launch'}))
    await events.waitFor((e) => e.type === 'state.rebuilt' && !seen.has(e) && e.data.causes.includes('modules/api/tasks/API2-login.md'), 'the rebuild')
    expect(readFileSync(join(harness.repo.root, '.mesh', 'architect', 'roadmap.html'), 'utf8')).toContain('"status": "done"')
    const {page} = await openPage()
    const board = (await page.evaluate(READ_BOARD)) as any
    expect(board.columns.find((column: {status: string}) => column.status === 'done').tasks).toEqual(['API2'])
    expect(board.columns.find((column: {status: string}) => column.status === 'active').tasks).toEqual([])
    await browser.screenshot(page, 'architect-roadmap-after-move')
    await page.close()
  })
})
