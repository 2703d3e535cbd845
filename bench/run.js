// Runs every benchmark in bench/ one after the other (`npm run bench`), each
// in its own process with its output streamed as it comes, then prints a
// summary. Time is bounded: each benchmark has a time limit after which its
// whole process group (servers and load generators included) is killed.
// See bench/README.md for what each one measures and its bar.
//
//   npm run build && node bench/run.js [--only validate,startup,registry,daemon,asks,streams,agent,ide,site,relay] [--quick]
//
//   --only   a comma-separated subset, in the order given
//   --quick  smaller sizes (a smoke run: fast, numbers indicative only; the
//            bars are defined at the default sizes)
//
// Exits 1 when a benchmark failed, timed out, or printed a missed bar
// (a line with FAIL or MISS).
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const MINUTE = 60_000

/** Every benchmark: its script, its arguments (full and quick), and the time it may take. */
const BENCHES = [
  {name: 'validate', script: 'bench/validate/validate.mjs', args: [], quick: ['--tasks', '2000', '--docs', '100', '--rounds', '3'], limitMs: 5 * MINUTE},
  {name: 'startup', script: 'bench/startup/startup.mjs', args: [], quick: ['8'], limitMs: 3 * MINUTE},
  {name: 'registry', script: 'bench/registry/registry.mjs', args: [], quick: ['--agents', '2000', '--cards', '20000', '--queries', '200', '--seconds', '3'], limitMs: 6 * MINUTE},
  {name: 'daemon', script: 'bench/daemon/daemon.mjs', args: [], quick: ['--writes', '50', '--starts', '2'], limitMs: 3 * MINUTE},
  {name: 'asks', script: 'bench/daemon/asks.mjs', args: [], quick: ['--asks', '20', '--sequential', '5'], limitMs: 5 * MINUTE},
  {name: 'streams', script: 'bench/daemon/streams.mjs', args: [], quick: ['--lines', '2000', '--rounds', '3', '--turn-lines', '100'], limitMs: 3 * MINUTE},
  {name: 'agent', script: 'bench/agent/agent.mjs', args: [], quick: ['--verifications', '5000', '--requests', '3000', '--warmup', '500', '--rounds', '1'], limitMs: 5 * MINUTE},
  {name: 'ide', script: 'bench/ide/ide.mjs', args: [], quick: ['--tasks', '300', '--requests', '10', '--edits', '10', '--drags', '5'], limitMs: 4 * MINUTE},
  {name: 'site', script: 'bench/site/pages.mjs', args: [], quick: ['--agents', '1000', '--clusters', '100', '--requests', '20', '--warmup', '5', '--cards', '100'], limitMs: 5 * MINUTE},
  {name: 'relay', script: 'bench/relay/run.mjs', args: [], quick: ['--rounds', '2', '--messages', '100', '--paced', '40', '--idle', '2000', '--hold', '2'], limitMs: 12 * MINUTE},
]
/** A child that ignores SIGTERM this long after its time limit gets SIGKILL. */
const KILL_GRACE_MS = 5_000
/** How benchmarks report a missed bar. */
const MISSED = /\b(FAIL|MISS)\b/

const {values: flags} = parseArgs({options: {only: {type: 'string'}, quick: {type: 'boolean', default: false}}})
const known = new Map(BENCHES.map((bench) => [bench.name, bench]))
const selected = flags.only ? flags.only.split(',').filter(Boolean) : BENCHES.map((bench) => bench.name)
for (const name of selected) {
  if (!known.has(name)) {
    process.stderr.write(`--only: unknown benchmark "${name}" (known: ${[...known.keys()].join(', ')})\n`)
    process.exit(2)
  }
}
if (!existsSync(join(ROOT, 'dist', 'cluster', 'index.js'))) {
  process.stderr.write('dist/ is missing: run `npm run build` first (the benchmarks import the built code).\n')
  process.exit(1)
}

let current
// Ctrl-C or a kill of this runner takes the running benchmark's process group with it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (current) killGroup(current, 'SIGKILL')
    process.exit(130)
  })
}

function killGroup(child, signal) {
  try {
    // Negative pid: the whole group (the benchmark was started as a group leader).
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/** Runs one benchmark; resolves with its exit code, duration, whether it timed out and whether it printed a missed bar. */
function run(bench) {
  return new Promise((resolve) => {
    const args = [join(ROOT, bench.script), ...(flags.quick ? bench.quick : bench.args)]
    const started = Date.now()
    const child = spawn(process.execPath, args, {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true})
    current = child
    let missed = false
    const tails = []
    const forward = (stream, out) => {
      const index = tails.push('') - 1
      stream.on('data', (chunk) => {
        out.write(chunk)
        // Scan whole lines (a chunk may end mid-line).
        const lines = (tails[index] + chunk.toString()).split('\n')
        tails[index] = lines.pop() ?? ''
        if (lines.some((line) => MISSED.test(line))) missed = true
      })
    }
    forward(child.stdout, process.stdout)
    forward(child.stderr, process.stderr)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      process.stderr.write(`\n${bench.name}: over its ${bench.limitMs / MINUTE} min limit, stopping it\n`)
      killGroup(child, 'SIGTERM')
      setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS).unref()
    }, bench.limitMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      current = undefined
      if (tails.some((tail) => MISSED.test(tail))) missed = true
      // Leftovers of the group (a server the benchmark failed to stop) go too.
      killGroup(child, 'SIGKILL')
      resolve({name: bench.name, code: code ?? (signal ? 128 : 1), seconds: (Date.now() - started) / 1000, timedOut, missed})
    })
  })
}

const results = []
for (const name of selected) {
  const bench = known.get(name)
  const rule = '─'.repeat(8)
  process.stdout.write(`\n${rule} ${name}: node ${bench.script} ${(flags.quick ? bench.quick : bench.args).join(' ')} ${rule}\n`)
  results.push(await run(bench))
}

process.stdout.write(`\nsummary${flags.quick ? ' (--quick: smaller sizes, indicative only)' : ''}\n`)
for (const r of results) {
  const status = r.timedOut ? 'TIMED OUT' : r.code !== 0 ? `FAILED (exit ${r.code})` : r.missed ? 'bar missed' : 'ok'
  process.stdout.write(`  ${r.name.padEnd(10)} ${status.padEnd(18)} ${r.seconds.toFixed(0).padStart(4)} s\n`)
}
process.exitCode = results.every((r) => !r.timedOut && r.code === 0 && !r.missed) ? 0 : 1
