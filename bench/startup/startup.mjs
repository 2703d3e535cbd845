// Start-up benchmark: how long `mesh --version` takes, against a bare `node`
// start measured side by side in the same run, and which heavy packages
// `mesh --version` and `mesh validate --help` load (they must load none).
//
//   node bench/startup/startup.mjs [runs]      (default 20; needs a build: npm run build)
//
// Exits 1 when the median is over the bar or a heavy package was loaded.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {heavyModulesLoadedBy, HEAVY_PACKAGES, ROOT} from './heavy-modules.mjs'

const RUNS = Number(process.argv[2] ?? 20)
/** The bar from the brief: median start-up of `mesh --version`. */
const BAR_MS = 250

const cpuDir = mkdtempSync(join(tmpdir(), 'mesh-cpu-'))
const cpuLog = join(cpuDir, 'cpu.txt')
const cpuPreload = join(ROOT, 'bench', 'startup', 'record-cpu.mjs')

/** CPU milliseconds a run spent after its preload ran (read back from record-cpu.mjs). */
function cpu(args) {
  rmSync(cpuLog, {force: true})
  const result = spawnSync(process.execPath, ['--import', cpuPreload, ...args], {cwd: ROOT, stdio: 'ignore', env: {...process.env, MESH_CPU_LOG: cpuLog}})
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`)
  return Number(readFileSync(cpuLog, 'utf8').trim()) / 1000
}

function time(args) {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
  const elapsed = performance.now() - started
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return elapsed
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
const stats = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return {median: percentile(sorted, 50), p90: percentile(sorted, 90), min: sorted[0], max: sorted[sorted.length - 1]}
}
const ms = (value) => `${value.toFixed(1)} ms`

// Warm the file cache once, then interleave the two so both see the same machine load.
time([join(ROOT, 'bin', 'run.js'), '--version'])
const mesh = []
const bare = []
for (let i = 0; i < RUNS; i++) {
  bare.push(time(['-e', '']))
  mesh.push(time([join(ROOT, 'bin', 'run.js'), '--version']))
}
const meshCpu = []
const bareCpu = []
for (let i = 0; i < Math.min(RUNS, 10); i++) {
  bareCpu.push(cpu(['-e', '']))
  meshCpu.push(cpu([join(ROOT, 'bin', 'run.js'), '--version']))
}
rmSync(cpuDir, {recursive: true, force: true})
const meshStats = stats(mesh)
const bareStats = stats(bare)
const meshCpuStats = stats(meshCpu)
const bareCpuStats = stats(bareCpu)

console.log(`mesh start-up, ${RUNS} runs each (2-core machine, shared)`)
console.log(`  node -e ""          median ${ms(bareStats.median)}  p90 ${ms(bareStats.p90)}  (baseline)`)
console.log(`  mesh --version      median ${ms(meshStats.median)}  p90 ${ms(meshStats.p90)}  min ${ms(meshStats.min)}  max ${ms(meshStats.max)}`)
console.log(`  ratio to baseline   median ×${(meshStats.median / bareStats.median).toFixed(2)}  p90 ×${(meshStats.p90 / bareStats.p90).toFixed(2)}`)
console.log(`  mesh CLI own cost   median ${ms(meshStats.median - bareStats.median)} over bare node`)
console.log(`  cpu (user+sys)      mesh median ${ms(meshCpuStats.median)}, node median ${ms(bareCpuStats.median)} (×${(meshCpuStats.median / Math.max(bareCpuStats.median, 0.1)).toFixed(2)}; load-independent)`)
const fast = meshStats.median <= BAR_MS
console.log(`  bar: median ≤ ${BAR_MS} ms → ${fast ? 'PASS' : 'FAIL'}`)

let clean = true
console.log(`\nheavy packages (${HEAVY_PACKAGES.join(', ')}):`)
for (const args of [['--version'], ['validate', '--help']]) {
  const loads = heavyModulesLoadedBy(args)
  const ok = loads.status === 0 && loads.heavy.length === 0 && loads.recorded > 0
  clean &&= ok
  console.log(`  mesh ${args.join(' ').padEnd(16)} ${loads.heavy.length === 0 ? 'none loaded' : `LOADED ${loads.heavy.join(', ')}`} (${loads.packages.length} packages, ${loads.recorded} modules) → ${ok ? 'PASS' : 'FAIL'}`)
}
process.exitCode = fast && clean ? 0 : 1
