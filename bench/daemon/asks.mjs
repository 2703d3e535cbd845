// Team-turn benchmark (run `npm run build` first; spawns the built binary):
//   node bench/daemon/asks.mjs [--asks 100] [--sequential 20] [--json]
// In a project scaffolded by `mesh init`, whose external `consultant` is
// switched to the built-in `script` client, with the real `mesh serve
// --max-turns <asks>`:
// (a) --asks concurrent asks (`POST /team/consultant/ask`, one session each),
//     each polled until `done`; the daemon's peak RSS (VmHWM of its own
//     process, not the clients') is read at the end. Bar: every ask done and
//     peak RSS ≤ 200 MB.
// (b) turn overhead: --sequential asks one after the other, each timed from
//     the POST to its `chat.assistant.final` on /events; the baseline, run
//     side by side in this process, is the same script client spawned
//     directly with the same turn file (the client's own run). Overhead =
//     median(ask → final) − median(direct run): the daemon's cost per turn.
// Prints PASS/FAIL per bar and exits 1 when one is missed.
import {spawn} from 'node:child_process'
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import WebSocket from 'ws'
import {env, ms, option, percentile, ROOT, scaffold as scaffoldProject, sleep, sortedOf, startDaemon} from './lib.mjs'

const SCRIPT_CLIENT = join(ROOT, 'dist', 'daemon', 'chat', 'script', 'main.js')
const ASKS = Number(option('asks', 100))
const SEQUENTIAL = Number(option('sequential', 20))
const JSON_OUT = process.argv.includes('--json')
const BARS = {peakRssMb: 200}
const POLL_MS = 50
const PROJECT = 'bench-asks'

function scaffold() {
  const dir = scaffoldProject(PROJECT)
  // A short, fixed reply with a few lines, as a real answer streams.
  mkdirSync(join(dir, '.mesh', 'scripts'), {recursive: true})
  writeFileSync(join(dir, '.mesh', 'scripts', 'consultant.yaml'), 'replies:\n  - say: |\n      → working on #I1 · #T1\n      Looking at {{text}}.\n      The answer is 42.\n')
  return dir
}

function procKb(pid, field) {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1])
  } catch {
    return null
  }
}

async function call(url, method, path, {token, body, project = false} = {}) {
  const headers = {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {}), ...(project ? {'x-mesh-project': PROJECT} : {})}
  const response = await fetch(`${url}${path}`, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
  const json = await response.json()
  if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`)
  return json
}

/** The client's own run: the script client spawned directly with a turn file, as the daemon would. */
function directRun(dir, i) {
  const turnFile = join(dir, `.bench-turn-${i}.json`)
  writeFileSync(turnFile, JSON.stringify({conv: 'bench', member: 'consultant', profile: 'consultant', turn: 1, session: 'x', text: `question ${i}`, request_ids: []}))
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT_CLIENT, join(dir, '.mesh', 'scripts', 'consultant.yaml')], {cwd: dir, env: {...env, MESH_TURN_FILE: turnFile}, stdio: ['pipe', 'pipe', 'ignore']})
    child.stdout.resume()
    child.stdin.end(`question ${i}`)
    child.once('close', () => resolve(performance.now() - started))
  })
}

const dir = scaffold()
let daemon
try {
  daemon = await startDaemon(dir, ['--max-turns', String(ASKS), '--max-waiting', String(ASKS * 2)])
  const portal = readFileSync(join(dir, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
  await call(daemon.url, 'PATCH', '/team/consultant', {token: portal, body: {client: 'script', model: 'consultant'}})
  const member = (await call(daemon.url, 'GET', '/team/consultant/token', {token: portal})).token

  // (a) concurrent asks.
  const rssBefore = procKb(daemon.pid, 'VmRSS')
  const started = performance.now()
  const asked = await Promise.all(Array.from({length: ASKS}, (_, i) => call(daemon.url, 'POST', '/team/consultant/ask', {token: member, project: true, body: {text: `question ${i}`, session: `s${i}`}})))
  const results = await Promise.all(
    asked.map(async ({request_id}) => {
      for (;;) {
        const state = await call(daemon.url, 'GET', `/team/requests/${request_id}`, {token: member, project: true})
        if (state.status === 'done' || state.status === 'error') return state
        await sleep(POLL_MS)
      }
    }),
  )
  const concurrentMs = performance.now() - started
  const done = results.filter((result) => result.status === 'done' && result.result_text.includes('The answer is 42.')).length
  const peakRssMb = (procKb(daemon.pid, 'VmHWM') ?? Number.NaN) / 1024

  // (b) sequential: ask → final on /events, against the direct run of the same client.
  const ws = new WebSocket(`${daemon.url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${portal}`}})
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const finals = new Map()
  ws.on('message', (data) => {
    const event = JSON.parse(String(data))
    if (event.type === 'chat.assistant.final') finals.get(event.data.conv)?.(event)
  })
  const viaDaemon = []
  const direct = []
  for (let i = 0; i < SEQUENTIAL; i++) {
    direct.push(await directRun(dir, i))
    const conv = `ask-consultant-q${i}`
    const final = new Promise((resolve) => finals.set(conv, resolve))
    const t0 = performance.now()
    await call(daemon.url, 'POST', '/team/consultant/ask', {token: member, project: true, body: {text: `question ${i}`, session: `q${i}`}})
    await final
    viaDaemon.push(performance.now() - t0)
  }
  ws.close()
  const daemonMedian = percentile(sortedOf(viaDaemon), 50)
  const directMedian = percentile(sortedOf(direct), 50)

  const figures = {
    asks: ASKS,
    done,
    concurrent_wall_ms: concurrentMs,
    rss_before_mb: rssBefore === null ? null : rssBefore / 1024,
    peak_rss_mb: peakRssMb,
    ask_to_final_median_ms: daemonMedian,
    direct_client_median_ms: directMedian,
    overhead_per_turn_ms: daemonMedian - directMedian,
  }
  const verdicts = [
    {name: `${ASKS} concurrent asks done`, pass: done === ASKS, text: `${done}/${ASKS}`},
    {name: 'daemon peak RSS ≤ 200 MB', pass: Number.isFinite(peakRssMb) && peakRssMb <= BARS.peakRssMb, text: `${peakRssMb.toFixed(1)} MB`},
  ]
  const allPass = verdicts.every((v) => v.pass)
  if (JSON_OUT) console.log(JSON.stringify({figures, bars: verdicts, pass: allPass}))
  else {
    console.log(`asks: mesh serve, ${ASKS} concurrent asks to a script-client member (2-core machine, shared)`)
    console.log(`  ${ASKS} asks done in ${ms(concurrentMs)} wall; daemon RSS before ${figures.rss_before_mb?.toFixed(1) ?? 'n/a'} MB, peak ${peakRssMb.toFixed(1)} MB`)
    console.log(`  ask → final median ${ms(daemonMedian)}; baseline: the script client run directly, median ${ms(directMedian)}`)
    console.log(`  turn overhead (daemon cost per turn, the client's own run excluded): ${ms(figures.overhead_per_turn_ms)}`)
    for (const v of verdicts) console.log(`  bar: ${v.name} → ${v.text} ${v.pass ? 'PASS' : 'FAIL'}`)
  }
  process.exitCode = allPass ? 0 : 1
} finally {
  await daemon?.stop()
  rmSync(dir, {recursive: true, force: true})
}
