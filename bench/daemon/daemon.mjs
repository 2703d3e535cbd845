// Daemon benchmark (run `npm run build` first; spawns the built binary):
//   node bench/daemon/daemon.mjs [--writes 200] [--starts 5] [--json]
// In a project scaffolded by `mesh init` in a temp dir, with the real
// `mesh serve --port 0 --json`:
// (a) start: from spawning the process to the first 200 from /health, over
//     --starts cold starts (median; `mesh --version` beside it as the floor of
//     any mesh command). Bar: median ≤ 1 s.
// (b) idle RSS: VmRSS of /proc/<pid>/status 2 s after start. Bar: ≤ 100 MB.
// (c) file → event: --writes rewrites of a task file (fs.writeFile, one after
//     the other, each once the previous one's event came), the time from the
//     writeFile call to the matching `task.updated` on an /events subscriber;
//     an fs.watch in this process on the same folder is the baseline (what the
//     kernel's notification alone takes). Bars: p50 ≤ 100 ms, p99 ≤ 500 ms.
// Prints PASS/FAIL per bar and exits 1 when one is missed.
import {spawnSync} from 'node:child_process'
import {mkdirSync, readFileSync, rmSync, watch} from 'node:fs'
import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import WebSocket from 'ws'
import {BIN, env, ms, option, percentile, scaffold as scaffoldProject, sleep, sortedOf, startDaemon} from './lib.mjs'

const WRITES = Number(option('writes', 200))
const STARTS = Number(option('starts', 5))
const JSON_OUT = process.argv.includes('--json')

const BARS = {startMs: 1000, rssMb: 100, p50Ms: 100, p99Ms: 500}
/** How long one write may wait for its event before it counts as lost. */
const EVENT_TIMEOUT_MS = 5_000
const IDLE_MS = 2_000

const scaffold = () => scaffoldProject('Bench daemon')

function taskText(i) {
  const status = i % 2 === 0 ? 'active' : 'next'
  return `---\nid: BENCH1\ntitle: Bench write ${i}\nstatus: ${status}\npriority: medium\nowner: architect\ncategory: project\ncreated: 2026-01-05\nupdated: 2026-01-05\n---\n\n## Scope\n\nWrite number ${i}.\n`
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) / 1024
  } catch {
    return null
  }
}

function versionMs() {
  const started = performance.now()
  spawnSync(process.execPath, [BIN, '--version'], {env, stdio: 'ignore'})
  return performance.now() - started
}

const dir = scaffold()
const taskDir = join(dir, '.mesh', 'modules', 'project', 'tasks')
mkdirSync(taskDir, {recursive: true})
const taskPath = join(taskDir, 'BENCH1-bench.md')
await writeFile(taskPath, taskText(-1))

try {
  // (a) cold starts, with `mesh --version` beside each as the floor.
  versionMs()
  const starts = []
  const versions = []
  for (let i = 0; i < STARTS; i++) {
    versions.push(versionMs())
    const daemon = await startDaemon(dir)
    starts.push(daemon.startMs)
    await daemon.stop()
  }

  // (b) idle RSS, then (c) on the same daemon.
  const daemon = await startDaemon(dir)
  await sleep(IDLE_MS)
  const idleRss = rssMb(daemon.pid)

  const token = readFileSync(join(dir, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
  const ws = new WebSocket(`${daemon.url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${token}`}})
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  let waiting
  ws.on('message', (data) => {
    const event = JSON.parse(String(data))
    if (event.type === 'task.updated' && event.data.path === '.mesh/modules/project/tasks/BENCH1-bench.md') waiting?.(event)
  })
  let kernelSeen
  const kernelWatch = watch(taskDir, () => kernelSeen?.())

  const latencies = []
  const kernel = []
  let lost = 0
  for (let i = 0; i < WRITES; i++) {
    const event = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), EVENT_TIMEOUT_MS)
      waiting = (received) => {
        clearTimeout(timer)
        resolve(received)
      }
    })
    const started = performance.now()
    kernelSeen = () => {
      kernel.push(performance.now() - started)
      kernelSeen = undefined
    }
    await writeFile(taskPath, taskText(i))
    const received = await event
    if (received) latencies.push(performance.now() - started)
    else lost++
  }
  kernelWatch.close()
  const busyRss = rssMb(daemon.pid)
  ws.close()
  await daemon.stop()

  const startSorted = sortedOf(starts)
  const latencySorted = sortedOf(latencies)
  const kernelSorted = sortedOf(kernel)
  const figures = {
    start_ms: {median: percentile(startSorted, 50), max: startSorted[startSorted.length - 1], runs: STARTS, mesh_version_median: percentile(sortedOf(versions), 50)},
    idle_rss_mb: idleRss,
    rss_after_writes_mb: busyRss,
    file_to_event_ms: {writes: WRITES, received: latencies.length, lost, p50: percentile(latencySorted, 50), p90: percentile(latencySorted, 90), p99: percentile(latencySorted, 99), max: latencySorted[latencySorted.length - 1]},
    fs_watch_baseline_ms: {p50: percentile(kernelSorted, 50), p99: percentile(kernelSorted, 99)},
  }
  const verdicts = [
    ['start median', figures.start_ms.median, BARS.startMs, 'ms'],
    ['idle RSS', idleRss ?? Number.NaN, BARS.rssMb, 'MB'],
    ['file → event p50', figures.file_to_event_ms.p50 ?? Number.NaN, BARS.p50Ms, 'ms'],
    ['file → event p99', figures.file_to_event_ms.p99 ?? Number.NaN, BARS.p99Ms, 'ms'],
  ].map(([name, value, bar, unit]) => ({name, value, bar, unit, pass: Number.isFinite(value) && value <= bar}))
  const allPass = verdicts.every((v) => v.pass) && lost === 0

  if (JSON_OUT) console.log(JSON.stringify({figures, bars: verdicts, pass: allPass}))
  else {
    console.log(`daemon: mesh serve in a mesh init project (2-core machine, shared)`)
    console.log(`  start → first /health   median ${ms(figures.start_ms.median)}  max ${ms(figures.start_ms.max)}  (${STARTS} cold starts; mesh --version median ${ms(figures.start_ms.mesh_version_median)})`)
    console.log(`  idle RSS                ${idleRss === null ? 'n/a (no /proc)' : `${idleRss.toFixed(1)} MB`}  (after ${WRITES} writes: ${busyRss === null ? 'n/a' : `${busyRss.toFixed(1)} MB`})`)
    const f = figures.file_to_event_ms
    console.log(`  writeFile → task.updated p50 ${ms(f.p50)}  p90 ${ms(f.p90)}  p99 ${ms(f.p99)}  max ${ms(f.max)}  (${f.received}/${WRITES} received, ${lost} lost)`)
    console.log(`  baseline: fs.watch here  p50 ${ms(figures.fs_watch_baseline_ms.p50)}  p99 ${ms(figures.fs_watch_baseline_ms.p99)}  (the watcher adds its debounce on top)`)
    for (const v of verdicts) console.log(`  bar: ${v.name} ≤ ${v.bar} ${v.unit} → ${v.pass ? 'PASS' : 'FAIL'}`)
    if (lost > 0) console.log(`  bar: every write reported → FAIL (${lost} lost)`)
  }
  process.exitCode = allPass ? 0 : 1
} finally {
  rmSync(dir, {recursive: true, force: true})
}
