// IDE benchmark (run `npm run build` first; spawns the built binary and Debian's Chromium):
//   node bench/ide/ide.mjs [--tasks 1000] [--requests 30] [--edits 40] [--drags 15] [--json]
// In a project scaffolded by `mesh init` with --tasks task files over its modules
// (statuses, priorities, tags and dependencies mixed), the real `mesh serve`:
// (a) first paint: GET / for a logged-in browser, time to the last byte over
//     --requests requests (p50, p95) and its size. Goal: p95 ≤ 150 ms.
// (b) hand edit → card moved: a task file rewritten with another status
//     (fs.writeFile), to the card standing in its new column on an open board,
//     as the page itself records it (a MutationObserver; Date.now on both
//     sides, one machine). Goal: p99 ≤ 150 ms.
// (c) drag → file written → card settled: from the drop of a card on another
//     column (as the page records it), to the file holding the new status
//     (polled) and to the card no longer waiting for the daemon's answer.
//     Goal: ≤ 200 ms.
// Printed, not asserted (issue 22): the goals are said met or not, nothing exits 1.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {parse} from 'yaml'
import {BIN, env, ms, option, percentile, scaffold, sleep, sortedOf, startDaemon} from '../daemon/lib.mjs'

const TASKS = Number(option('tasks', 1000))
const REQUESTS = Number(option('requests', 30))
const EDITS = Number(option('edits', 40))
const DRAGS = Number(option('drags', 15))
const JSON_OUT = process.argv.includes('--json')
const GOALS = {firstPaintP95Ms: 150, editP99Ms: 150, dragMs: 200}
const CHROMIUM = '/usr/bin/chromium'
const STATUSES = ['backlog', 'next', 'active', 'blocked', 'done', 'draft']
const COLUMNS = ['backlog', 'next', 'active', 'blocked', 'done']

if (!existsSync(CHROMIUM)) {
  console.log(`ide: skipped — ${CHROMIUM} is missing (apt-get install chromium)`)
  process.exit(0)
}
const {chromium} = await import('playwright-core')

/** Task files over the project's modules; every third depends on one five before it. */
function writeTasks(dir) {
  const modules = parse(readFileSync(join(dir, '.mesh/public/cluster.yaml'), 'utf8')).modules.filter((module) => module.task_prefix)
  const files = []
  for (let i = 1; i <= TASKS; i++) {
    const module = modules[i % modules.length]
    const id = `${module.task_prefix}${i}`
    const before = i > 10 && i % 3 === 0 ? `${modules[(i - 5) % modules.length].task_prefix}${i - 5}` : null
    const path = join(dir, '.mesh/modules', module.id, 'tasks', `${id}-task-${i}.md`)
    const text = (status) =>
      `---\nid: ${id}\ntitle: Task number ${i} does a reasonably described thing\nstatus: ${status}\npriority: ${['low', 'medium', 'high', 'critical'][i % 4]}\nowner: architect\ncategory: ${module.id}\ncreated: 2026-01-05\nupdated: 2026-01-05\ntags: [t${i % 7}, area${i % 3}]\n${before ? `depends_on: [${before}]\n` : ''}---\n\n## Scope\n\nWhat changes.\n`
    mkdirSync(join(dir, '.mesh/modules', module.id, 'tasks'), {recursive: true})
    writeFileSync(path, text(STATUSES[i % STATUSES.length]))
    files.push({id, path, text})
  }
  return files
}

const dir = scaffold('Bench IDE')
const tasks = writeTasks(dir)
const daemon = await startDaemon(dir)
let browser
try {
  const open = spawnSync(process.execPath, [BIN, 'open', '--json', '--dir', dir], {env, encoding: 'utf8'})
  if (open.status !== 0) throw new Error(`mesh open exited ${open.status}: ${open.stderr}`)
  const {url: loginUrl} = JSON.parse(open.stdout)

  // (a) first paint, server side: a second login link for a plain HTTP client.
  const second = JSON.parse(spawnSync(process.execPath, [BIN, 'open', '--json', '--dir', dir], {env, encoding: 'utf8'}).stdout).url
  const login = await fetch(second, {redirect: 'manual', headers: {accept: 'text/html'}})
  const cookie = login.headers.get('set-cookie').split(';')[0]
  const paints = []
  let bytes = 0
  for (let i = 0; i < REQUESTS + 3; i++) {
    const started = performance.now()
    const page = await fetch(`${daemon.url}/`, {headers: {accept: 'text/html', cookie}})
    const body = await page.arrayBuffer()
    if (i >= 3) paints.push(performance.now() - started)
    bytes = body.byteLength
  }

  // (b) and (c) in Chromium.
  browser = await chromium.launch({executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']})
  const page = await browser.newPage({viewport: {width: 1600, height: 1000}})
  const loadStarted = performance.now()
  await page.goto(loginUrl)
  await page.waitForSelector('#live[data-state="live"]')
  const loadMs = performance.now() - loadStarted
  // The page records when a card lands in a list, and when it stops waiting for the daemon.
  await page.evaluate(`(() => {
    window.__landed = {}
    window.__settled = {}
    document.addEventListener('drop', () => (window.__droppedAt = Date.now()), true)
    new MutationObserver((records) => {
      const now = Date.now()
      for (const record of records) {
        for (const node of record.addedNodes) if (node.dataset?.id) window.__landed[node.dataset.id + '@' + node.parentElement.dataset.status] = now
        if (record.type === 'attributes' && record.target.dataset?.id && !record.target.classList.contains('pending')) window.__settled[record.target.dataset.id + '@' + record.target.parentElement?.dataset.status] ??= now
      }
    }).observe(document.getElementById('main'), {childList: true, subtree: true, attributes: true, attributeFilter: ['class']})
  })()`)
  const columnOf = (id) => page.evaluate(`document.querySelector('.card[data-id="${id}"]')?.parentElement.dataset.status`)
  async function waitFor(expression, timeoutMs = 5000) {
    const until = Date.now() + timeoutMs
    for (;;) {
      const value = await page.evaluate(expression)
      if (value) return value
      if (Date.now() > until) return null
      await sleep(5)
    }
  }

  const edits = []
  let lostEdits = 0
  for (let i = 0; i < EDITS; i++) {
    const task = tasks[(i * 37) % tasks.length]
    const from = await columnOf(task.id)
    const to = COLUMNS[(COLUMNS.indexOf(from) + 1 + (i % 3)) % COLUMNS.length]
    const started = Date.now()
    writeFileSync(task.path, task.text(to))
    const landed = await waitFor(`window.__landed['${task.id}@${to}']`)
    if (landed) edits.push(landed - started)
    else lostEdits++
    await sleep(150)
  }

  const drags = {written: [], settled: []}
  for (let i = 0; i < DRAGS; i++) {
    // A card of a status column (the draft lane, above them, is thousands of pixels tall with 1,000 tasks).
    let pick = i * 53 + 11
    while ((await columnOf(tasks[pick % tasks.length].id)) === 'draft') pick++
    const task = tasks[pick % tasks.length]
    const from = await columnOf(task.id)
    const to = COLUMNS[(COLUMNS.indexOf(from) + 1) % COLUMNS.length]
    await page.locator(`.card[data-id="${task.id}"]`).scrollIntoViewIfNeeded()
    await page.evaluate('window.__droppedAt = null')
    // Onto the card of the target column level with the dragged one: both in view, no scrolling mid-drag
    // (a drop aimed at the middle of a 200-card list missed it about one time in four).
    const level = await page.evaluate(`(() => {
      const top = document.querySelector('.card[data-id="${task.id}"]').getBoundingClientRect().top
      const distance = (card) => Math.abs(card.getBoundingClientRect().top - top)
      const cards = [...document.querySelectorAll('ul.cards[data-status="${to}"] > .card')]
      return cards.reduce((best, card) => (distance(card) < distance(best) ? card : best), cards[0])?.dataset.id ?? null
    })()`)
    await page.dragAndDrop(`.card[data-id="${task.id}"]`, level ? `ul.cards[data-status="${to}"] > .card[data-id="${level}"]` : `ul.cards[data-status="${to}"]`)
    // From the drop as the page saw it: the pointer's travel is the test driver's, not the board's.
    const started = await waitFor('window.__droppedAt')
    if (!started) continue
    let written = null
    for (const until = Date.now() + 5000; Date.now() < until; await sleep(2)) {
      if (readFileSync(task.path, 'utf8').includes(`status: ${to}\n`)) {
        written = Date.now()
        break
      }
    }
    const settled = await waitFor(`window.__settled['${task.id}@${to}']`)
    if (written) drags.written.push(written - started)
    if (settled) drags.settled.push(settled - started)
    await sleep(150)
  }

  const paint = sortedOf(paints)
  const edit = sortedOf(edits)
  const settled = sortedOf(drags.settled)
  const figures = {
    tasks: TASKS,
    first_paint_ms: {p50: percentile(paint, 50), p95: percentile(paint, 95), requests: REQUESTS, bytes},
    browser_load_ms: loadMs,
    edit_to_card_ms: {p50: percentile(edit, 50), p99: percentile(edit, 99), max: edit[edit.length - 1], edits: EDITS, lost: lostEdits},
    drag_ms: {written_p50: percentile(sortedOf(drags.written), 50), settled_p50: percentile(settled, 50), settled_max: settled[settled.length - 1], drags: DRAGS, settled_count: settled.length},
  }
  const goals = [
    ['first paint p95', figures.first_paint_ms.p95, GOALS.firstPaintP95Ms],
    ['hand edit → card p99', figures.edit_to_card_ms.p99, GOALS.editP99Ms],
    ['drag → settled (max)', figures.drag_ms.settled_max, GOALS.dragMs],
  ].map(([name, value, goal]) => ({name, value, goal, met: Number.isFinite(value) && value <= goal}))
  if (JSON_OUT) console.log(JSON.stringify({figures, goals}))
  else {
    console.log(`ide: the board of a ${TASKS}-task project (2-core machine, shared; printed, not asserted)`)
    console.log(`  first paint GET /     p50 ${ms(figures.first_paint_ms.p50)}  p95 ${ms(figures.first_paint_ms.p95)}  ${(bytes / 1024).toFixed(0)} KB  (${REQUESTS} requests, server time to the last byte)`)
    console.log(`  login → board live    ${ms(loadMs)} in Chromium`)
    console.log(`  hand edit → card      p50 ${ms(figures.edit_to_card_ms.p50)}  p99 ${ms(figures.edit_to_card_ms.p99)}  max ${ms(figures.edit_to_card_ms.max)}  (${EDITS} edits, ${lostEdits} never seen)`)
    console.log(`  drag → file written   p50 ${ms(figures.drag_ms.written_p50)};  → card settled p50 ${ms(figures.drag_ms.settled_p50)}  max ${ms(figures.drag_ms.settled_max)}  (${settled.length}/${DRAGS})`)
    for (const goal of goals) console.log(`  goal: ${goal.name} ≤ ${goal.goal} ms → ${goal.met ? 'met' : 'not met'}`)
  }
} finally {
  await browser?.close()
  await daemon.stop()
  rmSync(dir, {recursive: true, force: true})
}
