/**
 * Issue 22, deliverables 3 and 5, in a real Chromium against a daemon this
 * test starts (logged in with `mesh open --print`): the Roadmap view (the
 * initiatives' progress, tasks and dependency graphs, kept current after a
 * `mesh task move`) and `.mesh/architect/roadmap.html` opened from disk with
 * the same view; the Project view — health, versions, storage, links edited
 * through the daemon, `mesh validate` whose findings link to their file and
 * line (`ux.validation` in the debug stream), a snapshot restored and the
 * restore undone, the debug stream's level and tag filters, the timeline by
 * day; hostile values inert everywhere; no axe-core violation of serious or
 * critical impact in light and dark. Screenshots: test-artifacts/ide-*.png.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Page} from 'playwright-core'
import {scanAccessibility} from '../../support/axe.js'
import {launchBrowser, type TestBrowser, WATCH_CSP} from '../../support/browser.js'
import {runCli} from '../../support/cli.js'
import {frontmatter, INITIATIVE_BODY, makeRepo, taskFile, TODAY} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const BIDI = '\u202E'
const HOSTILE = `</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b> ${BIDI}gnp.exe`
const LINKS = '.mesh/public/links.yaml'
const LINKS_TEXT = `# where each module runs\nversion: 1\nmodules:\n  - id: api\n    prod:\n      url: "javascript:window.__pwned=7"\n      provider: fly\n    repo:\n      branch: main\n      version: 1.2.0\n`

let harness: DaemonHarness
let browser: TestBrowser
let origin: string

beforeAll(async () => {
  harness = await startHarness({
    repo: makeRepo({
      '.mesh/modules/api/tasks/API1-first-task.md': taskFile({initiative: 'launch'}),
      '.mesh/modules/api/tasks/API2-login.md': taskFile({id: 'API2', title: 'Login route', status: 'backlog', initiative: 'launch', depends_on: ['API1']}),
      '.mesh/modules/api/tasks/API3-after.md': taskFile({id: 'API3', title: 'After login', status: 'blocked', initiative: 'launch', depends_on: ['API2']}),
      '.mesh/modules/api/tasks/API4-loose.md': taskFile({id: 'API4', title: 'Loose end', status: 'next', depends_on: ['API3']}),
      '.mesh/modules/api/tasks/API5-evil.md': taskFile({id: 'API5', title: HOSTILE, status: 'active', initiative: 'evil', depends_on: ['API2']}),
      '.mesh/roadmap/initiatives/evil.md': frontmatter({id: 'evil', title: `<svg onload="window.__pwned = 3">${BIDI}`, status: 'active', owner: 'architect', created: TODAY, updated: TODAY}, INITIATIVE_BODY),
      // No frontmatter: mesh validate names this file at line 1.
      '.mesh/docs/architecture/notes.md': '# Notes\n\nNo frontmatter here.\n',
      [LINKS]: LINKS_TEXT,
      [`.mesh/timeline/${TODAY}.jsonl`]: [
        {ts: `${TODAY}T09:00:00.000Z`, type: 'chat.user', author: 'operator', text: 'Start the login work', conv: 'm-developer'},
        {ts: `${TODAY}T09:00:01.000Z`, type: 'chat.assistant.delta', author: 'developer', text: 'thinking', conv: 'm-developer'},
        {ts: `${TODAY}T09:05:00.000Z`, type: 'chat.assistant.final', author: 'developer', text: HOSTILE, conv: 'm-developer'},
      ].map((line) => JSON.stringify(line) + '\n').join(''),
    }),
  })
  origin = `http://127.0.0.1:${harness.running.port}`
  browser = await launchBrowser({viewport: {width: 1300, height: 900}})
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await harness?.close()
})

/** Nothing hostile ran or became markup: no script ran, no `javascript:` link, no injected element, no bidi control. */
const INERT = `({
  pwned: window.__pwned ?? null,
  javascriptLinks: document.querySelectorAll('a[href^="javascript" i]').length,
  injected: document.querySelectorAll('main img, main b, main script, main svg:not(.graph svg), main svg svg, dialog img, dialog script').length,
  bidi: /[\\u202A-\\u202E\\u2066-\\u2069]/.test(document.body.innerText),
  csp: window.__cspViolations,
})`
const CLEAN = {pwned: null, javascriptLinks: 0, injected: 0, bidi: false, csp: []}

async function openView(path: string): Promise<Page> {
  const result = await runCli(['open', '--print', '--dir', harness.repo.root])
  expect(result.code, result.stderr).toBe(0)
  const page = await browser.newPage()
  await page.addInitScript(WATCH_CSP)
  await page.goto(result.stdout.trim().split('\n').pop()!)
  await page.goto(`${origin}${path}`)
  await page.waitForSelector('#live[data-state="live"]')
  return page
}

const rows = (page: Page, scope: string) => page.evaluate(`[...document.querySelectorAll('${scope} tr[data-task]')].map((row) => row.dataset.task)`) as Promise<string[]>
const debugTail = async (tag: string) => (await harness.call('GET', `/debug/tail?tag=${tag}`, {auth: true})).body.events as Array<{tag: string; msg: string; src: string}>

describe('the Roadmap view', () => {
  let roadmap: Page

  it('shows each initiative with its progress, its tasks and its dependency graph; hostile text is text', async () => {
    roadmap = await openView('/ide/roadmap')
    expect(await roadmap.locator('nav a[aria-current="page"]').innerText()).toBe('Roadmap')
    const launch = roadmap.locator('section.initiative', {hasText: '#launch'})
    expect(await launch.locator('.meta').innerText()).toContain('0 of 3 done (0%)')
    expect(await rows(roadmap, '#initiative-1')).toEqual(['API2', 'API1', 'API3'])
    // Backlog, next, blocked; API1 → API2 → API3 in three columns; API4 (no initiative) waits on API3, drawn outside its group.
    expect(await launch.locator('.graph .node').count()).toBe(3)
    expect(await launch.locator('.graph .edges path').count()).toBe(2)
    const loose = roadmap.locator('section.loose')
    expect(await rows(roadmap, 'section.loose')).toEqual(['API4'])
    expect(await loose.locator('.graph .node.external').count()).toBe(1)
    const evil = roadmap.locator('section.initiative', {hasText: '#evil'})
    expect(await evil.locator('h2').innerText()).toContain('<svg onload="window.__pwned = 3">')
    expect(await evil.locator('tr[data-task="API5"] .title').innerText()).toBe(HOSTILE.replace(BIDI, ''))
    expect(await roadmap.evaluate(INERT)).toEqual(CLEAN)
    await browser.screenshot(roadmap, 'ide-roadmap-light')
  })

  it('filters by text: matching rows, or a whole initiative whose heading matches', async () => {
    const visible = () => roadmap.evaluate(`[...document.querySelectorAll('#roadmap tr[data-task]')].filter((row) => row.checkVisibility()).map((row) => row.dataset.task)`)
    await roadmap.fill('#roadmap-filter', 'login')
    expect(await visible()).toEqual(['API2', 'API3'])
    expect(await roadmap.locator('#roadmap-shown').innerText()).toBe('2 of 5 tasks match')
    await roadmap.fill('#roadmap-filter', '#evil')
    expect(await visible()).toEqual(['API5'])
    await roadmap.fill('#roadmap-filter', '')
    expect(await visible()).toHaveLength(5)
  })

  it('opens a task from its id, and gives focus back when it closes', async () => {
    await roadmap.click('section.initiative tr[data-task="API2"] [data-open]')
    await roadmap.waitForSelector('#task-dialog .fields')
    expect(await roadmap.locator('#task-dialog-title').innerText()).toBe('API2 Login route')
    await roadmap.keyboard.press('Escape')
    expect(await roadmap.evaluate('document.activeElement.dataset.open')).toBe('API2')
  })

  it('follows the roadmap: a task moved elsewhere shows its new status and the progress', async () => {
    const moved = await runCli(['task', 'move', 'API1', 'done', '--dir', harness.repo.root])
    expect(moved.code, moved.stderr).toBe(0)
    const launch = roadmap.locator('section.initiative', {hasText: '#launch'})
    await expect.poll(() => launch.locator('.meta').innerText(), {timeout: 20_000}).toContain('1 of 3 done (33%)')
    // Done tasks leave the table for the line of done ids.
    expect(await rows(roadmap, '#initiative-1')).toEqual(['API2', 'API3'])
    expect(await launch.locator('.done-line').innerText()).toBe('done 1: API1')
  })

  it('writes the same view to .mesh/architect/roadmap.html, which opens from disk with no script and no network', async () => {
    const file = join(harness.repo.root, '.mesh', 'architect', 'roadmap.html')
    await expect.poll(() => readFileSync(file, 'utf8'), {timeout: 20_000}).toContain('1 of 3 done (33%)')
    const page = await browser.newPage()
    const requests: string[] = []
    page.on('request', (request) => void requests.push(request.url()))
    await page.addInitScript(WATCH_CSP)
    const url = pathToFileURL(file).href
    await page.goto(url)
    expect(await rows(page, '#initiative-1')).toEqual(await rows(roadmap, '#initiative-1'))
    expect(await page.locator('.roadmap').innerText()).toBe(await roadmap.locator('.roadmap').innerText())
    expect(await page.locator('tr[data-task="API2"] a.id').getAttribute('href')).toBe('../modules/api/tasks/API2-login.md')
    expect(await page.evaluate(INERT)).toEqual({...CLEAN, injected: 0})
    expect(await page.evaluate('document.scripts.length')).toBe(0)
    expect(requests).toEqual([url])
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({colorScheme: scheme})
      const report = await scanAccessibility(page, {label: `roadmap.html, ${scheme}`})
      expect(report.violations, report.summary).toEqual([])
      await browser.screenshot(page, `ide-roadmap-file-${scheme}`)
    }
    await page.close()
  })

  it('has no serious or critical axe-core violation in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await roadmap.emulateMedia({colorScheme: scheme})
      const report = await scanAccessibility(roadmap, {label: `roadmap, ${scheme}`})
      expect(report.violations, report.summary).toEqual([])
    }
    await browser.screenshot(roadmap, 'ide-roadmap-dark')
    await roadmap.close()
  })
})

describe('the Project view', () => {
  let project: Page

  it('shows health and warnings, versions, storage and the links; a javascript: address stays text', async () => {
    project = await openView('/ide/project')
    await project.waitForSelector('#health-body .health-grid')
    const health = (await harness.call('GET', '/health')).body
    expect(await project.locator('#health-body').innerText()).toContain(`${health.context_tree.token_estimate} tokens`)
    expect(await project.locator('#health-body').innerText()).toMatch(/Transport\s+state\s+off/)
    await project.waitForSelector('#versions-body table')
    expect(await project.locator('#versions-body').innerText()).toContain(`mesh-ts ${health.version}`)
    expect(await project.locator('#versions-body tbody').innerText()).toContain('1.2.0')
    await project.waitForSelector('#storage-body table')
    expect(await project.locator('#storage-body tbody tr').count()).toBeGreaterThan(5)
    const api = project.locator('#links-table tr[data-module="api"]')
    expect(await api.innerText()).toContain('javascript:window.__pwned=7')
    expect(await project.evaluate(INERT)).toEqual(CLEAN)
    await browser.screenshot(project, 'ide-project-light')
  })

  it('runs mesh validate: said under ux.validation, each finding links to its file and line', async () => {
    await project.click('#validate')
    await project.waitForSelector('#validation-summary')
    expect(await project.locator('#validation-summary').innerText()).toMatch(/^Not valid: [1-9]\d* errors?/)
    const link = project.locator('#findings a', {hasText: '.mesh/docs/architecture/notes.md:1'}).first()
    expect(await project.locator('#validation-body').innerText()).not.toContain('null')
    expect(await link.getAttribute('href')).toBe('/ide/file?path=.mesh%2Fdocs%2Farchitecture%2Fnotes.md#L1')
    const logged = await debugTail('ux.validation')
    expect(logged.at(-1)).toMatchObject({tag: 'ux.validation', src: 'Architect IDE'})
    expect(logged.at(-1)!.msg).toMatch(/^mesh validate run from the IDE: \d+ errors?/)
    await browser.screenshot(project, 'ide-project-validation')
    await link.click()
    await project.waitForSelector('pre.file')
    expect(await project.evaluate('document.querySelector(":target")?.id')).toBe('L1')
    expect(await project.locator('#L1').innerText()).toContain('# Notes')
    for (const scheme of ['light', 'dark'] as const) {
      await project.emulateMedia({colorScheme: scheme})
      const report = await scanAccessibility(project, {label: `file view, ${scheme}`})
      expect(report.violations, report.summary).toEqual([])
    }
    await browser.screenshot(project, 'ide-file')
    await project.emulateMedia({colorScheme: 'light'})
    await project.goBack()
    await project.waitForSelector('#live[data-state="live"]')
  })

  it('edits a module\'s links through the daemon, restores the snapshot the edit kept, and undoes the restore', async () => {
    await project.waitForSelector('#links-table [data-edit-links="api"]')
    await project.click('#links-table [data-edit-links="api"]')
    await project.fill('#link-prod-url', 'https://api.example.com/')
    await project.fill('#link-repo-version', '1.3.0')
    const dialogReport = await scanAccessibility(project, {label: 'links dialog'})
    expect(dialogReport.violations, dialogReport.summary).toEqual([])
    await browser.screenshot(project, 'ide-project-links-edit')
    await project.click('#link-form [type="submit"]')
    await expect.poll(() => harness.repo.read(LINKS)).toContain('version: 1.3.0')
    expect(harness.repo.read(LINKS)).toContain('# where each module runs')
    await expect.poll(() => project.locator('#links-table tr[data-module="api"] a').getAttribute('href')).toBe('https://api.example.com/')

    await project.click('#snapshots [data-refresh="snapshots"]')
    await expect.poll(() => project.locator('#snapshot-file option[value="public/links.yaml"]').count()).toBe(1)
    await project.selectOption('#snapshot-file', 'public/links.yaml')
    await project.waitForSelector('#snapshot-list [data-restore]')
    expect(await project.locator('#snapshot-list tbody tr').first().innerText()).toContain('links.patch')
    await project.locator('#snapshot-list [data-restore]').first().click()
    await project.waitForSelector('#snapshot-undo')
    expect(harness.repo.read(LINKS)).toBe(LINKS_TEXT)
    expect(await project.evaluate('document.activeElement.id')).toBe('snapshot-undo')
    await browser.screenshot(project, 'ide-project-snapshots')
    await project.click('#snapshot-undo')
    await expect.poll(() => project.locator('#snapshot-notice').innerText()).toContain('Undone')
    expect(harness.repo.read(LINKS)).toContain('version: 1.3.0')
  })

  it('filters the debug stream by level and tag, and follows it live', async () => {
    await project.selectOption('#debug-level', 'debug')
    await project.fill('#debug-tags', 'ux')
    // Only ux and its sub-tags, the validation said above among them.
    await expect.poll(() => project.evaluate(`[...new Set([...document.querySelectorAll('#debug-log tbody tr')].map((row) => row.dataset.tag))]`)).toEqual(['ux.validation'])
    const posted = await harness.call('POST', '/debug/log', {auth: true, body: JSON.stringify({events: [{lvl: 'error', tag: 'ux.boom', msg: HOSTILE}, {lvl: 'error', tag: 'other.thing', msg: 'not a ux line'}]})})
    expect(posted.status).toBe(200)
    await project.waitForSelector('#debug-log tbody tr[data-tag="ux.boom"]')
    expect(await project.locator('#debug-log tbody tr[data-tag="other.thing"]').count()).toBe(0)
    expect(await project.locator('#debug-log tbody tr[data-tag="ux.boom"] .message').innerText()).toBe(HOSTILE.replace(BIDI, ''))
    await project.selectOption('#debug-level', 'error')
    await expect.poll(() => project.evaluate(`[...document.querySelectorAll('#debug-log tbody tr')].map((row) => row.dataset.lvl + ' ' + row.dataset.tag)`)).toEqual(['error ux.boom'])
    await project.fill('#debug-tags', '')
    await expect.poll(() => project.locator('#debug-log tbody tr[data-tag="other.thing"]').count()).toBe(1)
  })

  it('shows the timeline by day: output lines left out, hostile text as text', async () => {
    await project.waitForSelector(`#timeline-day option[value="${TODAY}"]`, {state: 'attached'})
    await project.selectOption('#timeline-day', TODAY)
    await expect.poll(() => project.evaluate(`[...document.querySelectorAll('#timeline-log tbody tr')].map((row) => row.dataset.type)`)).toEqual(['chat.assistant.final', 'chat.user'])
    expect(await project.locator('#timeline-summary').innerText()).toContain('1 output line left out')
    expect(await project.locator('#timeline-log tr[data-type="chat.assistant.final"] .message').innerText()).toBe(HOSTILE.replace(BIDI, ''))
    await project.fill('#timeline-filter', 'login')
    expect(await project.locator('#timeline-log tbody tr').count()).toBe(1)
    await project.fill('#timeline-filter', '')
    expect(await project.locator('#timeline-summary').innerText()).toContain('1 output line left out')
    expect(await project.evaluate(INERT)).toEqual(CLEAN)
  })

  it('has no serious or critical axe-core violation in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await project.emulateMedia({colorScheme: scheme})
      const report = await scanAccessibility(project, {label: `project, ${scheme}`})
      expect(report.rulesRun).toBeGreaterThan(20)
      expect(report.violations, report.summary).toEqual([])
    }
    await browser.screenshot(project, 'ide-project-dark')
    expect(browser.console.filter((line) => line.startsWith('pageerror'))).toEqual([])
  })

  it('answers a browser without a session with the page saying to run mesh open', async () => {
    for (const path of ['/ide/roadmap', '/ide/project', '/ide/file?path=mesh.json']) {
      const answer = await harness.call('GET', path, {headers: {accept: 'text/html'}})
      expect(answer.status, path).toBe(401)
      expect(String(answer.body), path).toContain('mesh open')
    }
    expect((await harness.call('GET', '/ide/roadmap/fragment')).status).toBe(401)
  })

  it('refuses to show secrets or files outside the project', async () => {
    for (const path of ['.mesh/credentials/team-tokens.yaml', '../../etc/passwd', '.mesh/.runtime/daemon.json']) {
      const response = await project.goto(`${origin}/ide/file?path=${encodeURIComponent(path)}`)
      expect(response!.status()).toBe(404)
      expect(await project.locator('main').innerText()).toContain('This file cannot be shown')
    }
  })
})
