// Start-up benchmark (issue 21): how long the everyday commands take from
// process start, against a bare `node -e ""` start measured side by side in
// the same run, and which heavy packages the quick paths load (none).
//
//   node bench/startup/startup.mjs [runs]      (default 20; needs a build: npm run build)
//
// Cases, in a project scaffolded by `mesh init` with no daemon running:
// `mesh --version`, `mesh task list`, `mesh team list`, `mesh daemon status`
// (wall time and CPU time), and `mesh serve` from spawn to the first 200
// from /health (wall time, and the daemon's CPU time by then from /proc).
// Exits 1 when a median is over its bar or a heavy package was loaded.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {BIN, env, scaffold, startDaemon} from '../daemon/lib.mjs'
import {heavyModulesLoadedBy, HEAVY_PACKAGES, ROOT} from './heavy-modules.mjs'

const RUNS = Number(process.argv[2] ?? 20)
const SERVE_STARTS = Math.max(3, Math.min(RUNS, 7))

const project = scaffold('startup')
for (const title of ['First', 'Second', 'Third']) spawnSync(process.execPath, [BIN, 'task', 'create', '-m', 'general', '-t', title], {cwd: project, env, stdio: 'ignore'})

/** The commands, their bar (median wall ms, from the brief) and the exit codes they may end with. */
const CASES = [
  {name: 'mesh --version', args: ['--version'], bar: 120},
  {name: 'mesh task list', args: ['task', 'list'], bar: 250},
  {name: 'mesh team list', args: ['team', 'list'], bar: 250},
  // Exits 1 when no daemon runs (it says "stopped"), which is the case measured.
  {name: 'mesh daemon status', args: ['daemon', 'status'], bar: 250, exits: [1]},
]

const cpuDir = mkdtempSync(join(tmpdir(), 'mesh-cpu-'))
const cpuLog = join(cpuDir, 'cpu.txt')
const cpuPreload = join(ROOT, 'bench', 'startup', 'record-cpu.mjs')

function check(result, args, exits = []) {
  if (result.status !== 0 && !exits.includes(result.status)) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
}

/** CPU milliseconds a run spent after its preload ran (read back from record-cpu.mjs). */
function cpu(args, exits) {
  rmSync(cpuLog, {force: true})
  const result = spawnSync(process.execPath, ['--import', cpuPreload, ...args], {cwd: project, env: {...env, MESH_CPU_LOG: cpuLog}, encoding: 'utf8'})
  check(result, args, exits)
  return Number(readFileSync(cpuLog, 'utf8').trim()) / 1000
}

function time(args, exits) {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, {cwd: project, env, encoding: 'utf8'})
  const elapsed = performance.now() - started
  check(result, args, exits)
  return elapsed
}

/** CPU milliseconds (user + system) process `pid` has used so far (Linux /proc; null elsewhere). */
function procCpu(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in clock ticks of 1/100 s
  } catch {
    return null
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const stats = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return {median: percentile(sorted, 50), p90: percentile(sorted, 90), min: sorted[0], max: sorted[sorted.length - 1]}
}
const ms = (value) => `${value.toFixed(1)} ms`.padStart(9)

// Warm the file cache once, then interleave each case with the bare start so both see the same machine load.
for (const {args, exits} of CASES) time([BIN, ...args], exits)
const bare = []
const bareCpu = []
const wall = CASES.map(() => [])
const cpus = CASES.map(() => [])
for (let i = 0; i < RUNS; i++) {
  CASES.forEach(({args, exits}, c) => {
    bare.push(time(['-e', '']))
    wall[c].push(time([BIN, ...args], exits))
  })
}
for (let i = 0; i < Math.min(RUNS, 10); i++) {
  CASES.forEach(({args, exits}, c) => {
    bareCpu.push(cpu(['-e', '']))
    cpus[c].push(cpu([BIN, ...args], exits))
  })
}

// mesh serve: spawn → first 200 from /health, each start beside a bare node start.
const serveWall = []
const serveCpu = []
for (let i = 0; i < SERVE_STARTS; i++) {
  bare.push(time(['-e', '']))
  const daemon = await startDaemon(project)
  serveWall.push(daemon.startMs)
  const used = procCpu(daemon.pid)
  if (used !== null) serveCpu.push(used)
  await daemon.stop()
}
rmSync(cpuDir, {recursive: true, force: true})

const bareStats = stats(bare)
const bareCpuStats = stats(bareCpu)
console.log(`mesh start-up, ${RUNS} runs per command, ${SERVE_STARTS} daemon starts (2-core machine, shared)`)
console.log(`  ${'case'.padEnd(20)}   wall median      p90   ×bare | cpu median   ×bare | bar (median wall)`)
console.log(`  ${'node -e ""'.padEnd(20)} ${ms(bareStats.median)} ${ms(bareStats.p90)}    ×1.0 | ${ms(bareCpuStats.median)}    ×1.0 | baseline`)
let fast = true
const row = (name, wallSamples, cpuSamples, bar) => {
  const w = stats(wallSamples)
  const c = cpuSamples.length > 0 ? stats(cpuSamples) : null
  const pass = w.median <= bar
  fast &&= pass
  const cpuText = c ? `${ms(c.median)} ${`×${(c.median / Math.max(bareCpuStats.median, 0.1)).toFixed(1)}`.padStart(7)}` : '      n/a        '
  console.log(`  ${name.padEnd(20)} ${ms(w.median)} ${ms(w.p90)} ${`×${(w.median / bareStats.median).toFixed(1)}`.padStart(7)} | ${cpuText} | ≤ ${bar} ms → ${pass ? 'PASS' : 'FAIL'}`)
}
CASES.forEach(({name, bar}, c) => row(name, wall[c], cpus[c], bar))
row('mesh serve → /health', serveWall, serveCpu, 400)

let clean = true
console.log(`\nheavy packages (${HEAVY_PACKAGES.join(', ')}), no daemon running:`)
for (const args of [['--version'], ['validate', '--help'], ['task', 'list', '-C', project], ['team', 'list', '-C', project], ['daemon', 'status', '-C', project]]) {
  const loads = heavyModulesLoadedBy(args)
  const ok = loads.status !== null && loads.heavy.length === 0 && loads.recorded > 0
  clean &&= ok
  const shown = args.filter((arg) => arg !== project && arg !== '-C').join(' ')
  console.log(`  mesh ${shown.padEnd(16)} ${loads.heavy.length === 0 ? 'none loaded' : `LOADED ${loads.heavy.join(', ')}`} (${loads.packages.length} packages, ${loads.recorded} modules) → ${ok ? 'PASS' : 'FAIL'}`)
}
rmSync(project, {recursive: true, force: true})
process.exitCode = fast && clean ? 0 : 1
