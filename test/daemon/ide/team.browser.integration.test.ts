/**
 * Issue 22, deliverable 4 (the Team view), in a real Chromium against a
 * daemon this test starts with a team of `client: script` members: the
 * roster with live state, access and exposure; a chat message sent and its
 * turn streamed — tool activity, text, the brief it hands on nested under it
 * with the developer's answering turn, the final with its cost; a running
 * turn streamed line by line and stopped; the queue added to, reordered and
 * emptied; the architect run over the board and stopped, its debug tags
 * posted as the Architect IDE; a refused brief shown; an open request
 * cancelled; hostile agent output inert; no axe-core violation of serious
 * or critical impact in light and dark; the page small.
 * Screenshots: test-artifacts/ide-team-*.png.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Page} from 'playwright-core'
import {scanAccessibility} from '../../support/axe.js'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {runCli} from '../../support/cli.js'
import {marker, writeScriptTeam} from '../chat/script-team.js'
import {makeRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {BAR_TASKS, generatedTasks} from './bar-project.js'

const BIDI = '\u202E'
const HOSTILE = [
  '</script><script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '[click](javascript:window.__pwned=3) javascript:window.__pwned=4',
  `${BIDI}gnp.exe`,
].join('\n')

/** The developer's report, naming the request ids the daemon gave its turn. */
const report = '```mesh-report\n' + JSON.stringify({status: 'done', summary: 'Login route built', for: '@@'}).replace('"@@"', '{{request_ids}}') + '\n```'

let harness: DaemonHarness
let browser: TestBrowser
let page: Page
let conv: string

beforeAll(async () => {
  // The bars' project size (issue 22): the fixture's tasks plus generated ones up to 1,000, in six modules.
  harness = await startHarness({repo: makeRepo(generatedTasks(BAR_TASKS - 1))})
  writeScriptTeam(harness.repo.root, [
    {
      id: 'architect',
      title: 'The architect',
      format: 'claude-stream',
      replies: [
        {when: 'answered delegation', say: 'Thanks, all done.', usage: {input_tokens: 30, output_tokens: 5, cost_usd: 0.002}},
        {when: 'Delegation refused', say: 'Then I do it myself.'},
        {when: 'hand on the slow work', say: `Handing it on.\n${marker('delegate', {member: 'developer', brief: 'wait on this one'})}`},
        {when: 'ask yourself', say: `Looping.\n${marker('delegate', {member: 'architect', brief: 'do it'})}`},
        {
          when: 'plan the login',
          tools: [{tool: 'Read', input: {file_path: 'README.md'}, output: 'the readme'}],
          say: `Looking at the board.\nHanding the login to the developer.\n${marker('delegate', {member: 'developer', brief: 'build the login route'})}`,
          usage: {input_tokens: 120, output_tokens: 40, cost_usd: 0.0123},
        },
        {when: 'work slowly', say: 'Working slowly.\nstep 1 of many', hang: true},
        {when: 'Architect pass', say: 'Reading the dispatchable tasks.', hang: true},
        {when: 'say something hostile', say: HOSTILE, usage: {cost_usd: 0.001}},
      ],
      default: {say: 'Hm.'},
    },
    {
      id: 'developer',
      title: 'The developer',
      exposure: 'external',
      replies: [
        {when: 'answered delegation', say: 'Noted.'},
        {when: 'wait on this', say: 'On it, slowly.', hang: true},
      ],
      default: {say: `Built it.\n${report}`},
    },
  ])
  browser = await launchBrowser({viewport: {width: 1400, height: 1000}})
  const login = await runCli(['open', '--print', '--dir', harness.repo.root])
  expect(login.code, login.stderr).toBe(0)
  page = await browser.newPage()
  await page.goto(login.stdout.trim().split('\n').pop()!)
  await page.goto(`http://127.0.0.1:${harness.running.port}/ide/team`)
  await page.waitForSelector('#live[data-state="live"]')
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await harness?.close()
})

/** Waits for a page expression to hold (waitForFunction would eval inside the page, which its CSP refuses). */
const until = (expression: string) => expect.poll(() => page.evaluate(expression), {timeout: 15_000}).toBeTruthy()
const queueTexts = () => page.evaluate(`[...document.querySelectorAll('#queue-items .queue-item .text')].map((node) => node.textContent)`) as Promise<string[]>
const queueOnDisk = async () => ((await harness.call('GET', `/chat/conv/${conv}/queue`, {auth: true})).body.items as Array<{text: string}>).map((item) => item.text)

describe('the Team view in a browser', () => {
  it('shows the roster with each member’s state, access and exposure', async () => {
    await page.waitForSelector('#roster-rows tr[data-member="developer"]')
    const rows = await page.evaluate(`[...document.querySelectorAll('#roster-rows tr')].map((row) => [...row.children].map((cell) => cell.innerText.replace(/\\s+/g, ' ').trim()))`)
    expect(rows).toEqual([
      ['architect The architect', 'idle', 'read', 'internal', 'script · architect Chat'],
      ['developer The developer', 'idle', 'edit', 'external', 'script · developer Chat'],
    ])
  })

  it('sends a message and streams its turn: tool activity, the brief nested under it with its answer, the final with its cost', async () => {
    await page.click('#conv-list button[data-conv=""]')
    await page.selectOption('#composer-member', 'architect')
    await page.fill('#composer-text', 'plan the login, please')
    await page.click('#composer-send')
    await until(`new URL(location.href).searchParams.get('conv')`)
    conv = new URL(page.url()).searchParams.get('conv')!
    const turn = `#stream > .turn[data-conv="${conv}"]`
    await page.waitForSelector(`${turn}[data-status="done"] .final`)
    const first = page.locator(turn).first()
    expect(await first.locator(':scope > .inputs').innerText()).toContain('plan the login, please')
    expect(await first.locator(':scope > .tools .tool').innerText()).toMatch(/Read\s+README\.md\s+done/)
    expect(await first.locator(':scope > .out').innerText()).toContain('Handing the login to the developer.')
    expect(await first.locator(':scope > .out').innerText()).not.toContain('mesh-delegate')
    expect(await first.locator(':scope > .final').innerText()).toContain('cost $0.0123')
    // The brief sits under the turn that handed it on, the developer's turn inside it, then closed.
    const brief = first.locator('.delegation[data-member="developer"]')
    await page.waitForSelector(`${turn} .delegation[data-status="closed"] .turn[data-conv="m-developer"][data-status="done"]`)
    expect(await brief.locator('.deleg-head').innerText()).toContain('brief to developer')
    expect(await brief.locator('.turn .out').innerText()).toContain('Built it.')
    expect(await brief.locator('.badge').innerText()).toBe('success')
    // The architect is woken by the report: a turn of its own after the first.
    await until(`[...document.querySelectorAll('${turn}')].some((node) => node.querySelector('.out')?.textContent.includes('Thanks, all done.') && node.dataset.status === 'done')`)
    await browser.screenshot(page, 'ide-team-light')
    // Read again from the timeline (a reload), the same nesting.
    await page.reload()
    await page.waitForSelector(`${turn} .delegation[data-status="closed"] .turn[data-conv="m-developer"] .final`)
    expect(await page.locator(`${turn} .delegation`).count()).toBe(1)
    expect(await page.locator(`${turn}`).first().locator(':scope > .final').innerText()).toContain('cost $0.0123')
  })

  it('streams a running turn line by line, lines up the queue (add, reorder, edit, remove) and stops the turn; an item of the paused queue sent now', async () => {
    await page.fill('#composer-text', 'work slowly on it')
    await page.click('#composer-send')
    const running = `#stream > .turn[data-conv="${conv}"][data-status="running"]`
    await until(`document.querySelector('${running} .out')?.textContent.includes('step 1 of many')`)
    await page.waitForSelector(`#roster-rows tr[data-member="architect"] .state-running`)
    expect(await page.locator('#chat-stop').isVisible()).toBe(true)

    for (const text of ['first queued', 'second queued', 'third queued']) {
      await page.fill('#composer-text', text)
      await page.click('#composer-queue')
      await until(`[...document.querySelectorAll('#queue-items .text')].some((node) => node.textContent === ${JSON.stringify(text)})`)
    }
    expect(await queueOnDisk()).toEqual(['first queued', 'second queued', 'third queued'])
    await page.waitForSelector(`#roster-rows tr[data-member="architect"] .state-queued`)
    // Reorder with the keyboard: the third item's Up button.
    await page.focus('#queue-items .queue-item:nth-child(3) button[aria-label="Up — queued item 3"]')
    await page.keyboard.press('Enter')
    await expect.poll(queueTexts).toEqual(['first queued', 'third queued', 'second queued'])
    expect(await queueOnDisk()).toEqual(['first queued', 'third queued', 'second queued'])
    // Focus stays with the moved item: its Up button, now that it is second.
    await until(`document.activeElement?.getAttribute('aria-label') === 'Up — queued item 2'`)
    // Edit one.
    await page.click('#queue-items .queue-item:nth-child(1) button[aria-label="Edit — queued item 1"]')
    await page.fill('#queue-items .queue-item:nth-child(1) textarea', 'first, edited')
    await page.click('#queue-items .queue-item:nth-child(1) button:text("Save")')
    await expect.poll(queueTexts).toEqual(['first, edited', 'third queued', 'second queued'])
    await page.click('#queue-items .queue-item:nth-child(3) button[aria-label="Remove — queued item 3"]')
    await expect.poll(queueTexts).toEqual(['first, edited', 'third queued'])
    expect(await queueOnDisk()).toEqual(['first, edited', 'third queued'])
    await browser.screenshot(page, 'ide-team-running')

    // Stop the running turn: it ends failed (cancelled), and the queue holds (a failed turn pauses it).
    await page.click(`${running} button.stop`)
    await page.waitForSelector(`#stream > .turn[data-conv="${conv}"][data-status="failed"]`)
    expect(await page.locator(`#stream > .turn[data-conv="${conv}"][data-status="failed"] .final`).innerText()).toContain('failed (cancelled)')
    await page.waitForSelector('#queue-resume:not([hidden])')
    expect(await page.locator('#queue-state').innerText()).toContain('Paused')
    // Send now (promote) takes the head out and runs it as a turn, paused or not; Remove takes the rest out.
    await page.click('#queue-items .queue-item:nth-child(1) button[aria-label="Send now — queued item 1"]')
    await expect.poll(queueTexts).toEqual(['third queued'])
    await until(`[...document.querySelectorAll('#stream > .turn[data-conv="${conv}"][data-status="done"] .inputs')].some((node) => node.textContent.includes('first, edited'))`)
    await page.click('#queue-items .queue-item:nth-child(1) button[aria-label="Remove — queued item 1"]')
    await expect.poll(queueTexts).toEqual([])
    expect(await queueOnDisk()).toEqual([])
    await page.waitForSelector(`#roster-rows tr[data-member="architect"] .state-idle`)
  })

  it('keeps hostile agent output inert', async () => {
    await page.click('#conv-list button[data-conv=""]')
    // The operator's own text comes back in the stream too: its bidi override and script tag stay inert.
    await page.fill('#composer-text', `say something hostile ${BIDI}gnp.exe <script>window.__pwned = 9</script>`)
    await page.click('#composer-send')
    await page.waitForSelector('#stream > .turn[data-status="done"] .final')
    const out = await page.locator('#stream > .turn .out').innerText()
    expect(out).toContain('<script>window.__pwned = 1</script>')
    expect(out).toContain('javascript:window.__pwned=4')
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    expect(await page.locator('#stream script, #stream img, #stream a').count()).toBe(0)
    expect(await page.evaluate(`[...document.querySelectorAll('a')].filter((a) => a.href.startsWith('javascript:')).length`)).toBe(0)
    expect(await page.evaluate(`document.body.innerText.includes('\\u202E')`)).toBe(false)
    await browser.screenshot(page, 'ide-team-hostile')
  })

  it('shows a refused brief under the turn that tried it', async () => {
    await page.click('#conv-list button[data-conv=""]')
    await page.fill('#composer-text', 'ask yourself')
    await page.click('#composer-send')
    await page.waitForSelector('#stream > .turn .nested .refusal')
    expect(await page.locator('#stream > .turn .nested .refusal').innerText()).toMatch(/^Refused \(delegation-reentry\): /)
    await until(`[...document.querySelectorAll('#stream > .turn .out')].some((node) => node.textContent.includes('Then I do it myself.'))`)
  })

  it('lists an open request with its member running, cancels it, and stops the turn still answering it', async () => {
    await page.click('#conv-list button[data-conv=""]')
    await page.fill('#composer-text', 'hand on the slow work')
    await page.click('#composer-send')
    const row = '#requests .request'
    await page.waitForSelector(row)
    expect(await page.locator(`${row} .text`).innerText()).toBe('architect → developer: wait on this one')
    // The architect waits on its brief; the developer runs it.
    await page.waitForSelector('#roster-rows tr[data-member="architect"] .state-waiting')
    expect(await page.locator('#roster-rows tr[data-member="architect"] .state-waiting').innerText()).toBe('waiting on 1 request')
    await page.waitForSelector('#roster-rows tr[data-member="developer"] .state-running')
    // The developer's turn streams inside the brief, which may be announced after the turn began.
    await until(`document.querySelector('#stream .delegation[data-status="open"] .turn[data-conv="m-developer"][data-status="running"] .out')?.textContent.includes('On it, slowly.')`)
    await browser.screenshot(page, 'ide-team-request')
    await page.click(`${row} button:text("Cancel")`)
    await page.waitForSelector(row, {state: 'detached'})
    expect(await page.locator('#requests-count').innerText()).toBe('0')
    // The turn answering it goes on (docs/daemon-api.md, Delegation): open its conversation and stop it there.
    // With the keyboard: the list is drawn again (the selection), the focus stays on the same entry.
    await page.focus('#conv-list button[data-conv="m-developer"]')
    await page.keyboard.press('Enter')
    await page.waitForSelector('#conv-list button[data-conv="m-developer"][aria-current="true"]')
    expect(await page.evaluate(`document.activeElement?.dataset.key`)).toBe('conv:m-developer')
    await page.waitForSelector('#chat-stop:not([hidden])')
    await page.click('#chat-stop')
    await page.waitForSelector('#roster-rows tr[data-member="developer"] .state-idle')
    await page.waitForSelector('#stream > .turn[data-conv="m-developer"][data-status="failed"]')
    await page.waitForSelector('#roster-rows tr[data-member="architect"] .state-idle')
  })

  it('runs the architect over the board and stops it, posting ux.run-all and ux.stop-architect as the Architect IDE', async () => {
    await page.click('#architect-run')
    await until(`new URL(location.href).searchParams.get('conv') === 'arch-pass'`)
    await until(`document.querySelector('#architect-status').textContent.startsWith('A pass is running')`)
    await until(`document.querySelector('#stream > .turn[data-conv="arch-pass"][data-status="running"] .out')?.textContent.includes('Reading the dispatchable tasks.')`)
    await browser.screenshot(page, 'ide-team-architect')
    await page.click('#architect-stop')
    await until(`document.querySelector('#architect-last').textContent.includes('stopped')`)
    await page.waitForSelector('#stream > .turn[data-conv="arch-pass"][data-status="failed"]')
    const tail = await harness.call('GET', '/debug/tail?tag=ux', {auth: true})
    const ide = tail.body.events.filter((event: {src: string}) => event.src === 'Architect IDE').map((event: {tag: string}) => event.tag)
    expect(ide).toEqual(['ux.run-all', 'ux.stop-architect'])
  })

  it('has no serious or critical axe-core violation in light and dark, and weighs well under 500 KB', async () => {
    await page.click(`#conv-list button[data-conv="${conv}"]`)
    await page.waitForSelector(`#stream .delegation .turn .final`)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({colorScheme: scheme})
      const report = await scanAccessibility(page, {label: `team, ${scheme}`})
      expect(report.rulesRun).toBeGreaterThan(20)
      expect(report.violations, report.summary).toEqual([])
    }
    await browser.screenshot(page, 'ide-team-dark')
    const weight = (await page.evaluate(`performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).reduce((sum, entry) => sum + entry.decodedBodySize, 0)`)) as number
    expect(weight).toBeGreaterThan(0)
    expect(weight).toBeLessThan(500 * 1024)
    expect(browser.console.filter((line) => line.startsWith('pageerror'))).toEqual([])
  })
})
