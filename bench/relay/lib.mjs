// Process plumbing of the relay benchmark: spawning servers and load
// generators (with a raised open-files limit when needed), the servers'
// stdin/stdout control lines, IPC requests with timeouts, percentiles.
import {spawn, spawnSync} from 'node:child_process'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

export const HERE = fileURLToPath(new URL('.', import.meta.url))

const shellLimit = (flag) => Number(spawnSync('sh', ['-c', `ulimit ${flag}`], {encoding: 'utf8'}).stdout.trim()) || Number.POSITIVE_INFINITY

/**
 * Spawns `node <args>` with at least `files` open files allowed: through
 * `sh -c "ulimit -n …; exec node …"` when the current soft limit is lower
 * (up to the hard limit; a warning says when even that is too low).
 */
export function spawnNode(args, {files = 0, ipc = false} = {}) {
  const soft = shellLimit('-n')
  const stdio = ipc ? ['pipe', 'pipe', 'inherit', 'ipc'] : ['pipe', 'pipe', 'inherit']
  const extra = {stdio, serialization: 'advanced'}
  if (files <= soft) return spawn(process.execPath, args, extra)
  const hard = shellLimit('-Hn')
  const limit = Math.min(files, hard)
  if (limit < files) process.stderr.write(`warning: open files limited to ${limit} (hard limit); ${files} wanted. Raise it with ulimit -Hn as root.\n`)
  const quoted = [process.execPath, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
  return spawn('sh', ['-c', `ulimit -n ${limit} && exec ${quoted}`], extra)
}

/** A benchmark server process: `READY <port>` on start, `mem` → `MEM {…}`. */
export async function startServer(system, {files, profileDir}) {
  // --cpu-prof is refused in NODE_OPTIONS, so profiling is a flag of the runner (--cpu-prof <dir>).
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=server-${system}-${Date.now()}.cpuprofile`] : []
  const child = spawnNode([...profile, '--expose-gc', `${HERE}server-${system}.mjs`, '0'], {files})
  const lines = createInterface({input: child.stdout})
  const waiting = []
  lines.on('line', (line) => waiting.shift()?.(line))
  const nextLine = (timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server-${system}: no answer in ${timeoutMs} ms`)), timeoutMs)
      waiting.push((line) => {
        clearTimeout(timer)
        resolve(line)
      })
    })
  const ready = await nextLine(20_000)
  const port = Number(/^READY (\d+)$/.exec(ready)?.[1])
  if (!port) throw new Error(`server-${system} said "${ready}" instead of READY <port>`)
  return {
    system,
    port,
    http: `http://127.0.0.1:${port}`,
    async memory() {
      child.stdin.write('mem\n')
      return JSON.parse((await nextLine(30_000)).replace(/^MEM /, ''))
    },
    /** CPU seconds (user + system) the server process used so far. */
    async cpuSeconds() {
      child.stdin.write('cpu\n')
      return Number((await nextLine(30_000)).replace(/^CPU /, '')) / 1e6
    },
    async stop() {
      child.stdin.write('quit\n')
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 5000))])
      child.kill('SIGKILL')
    },
  }
}

/** A load generator process, with request(command, replyOp) over IPC. */
export function startLoadgen({files}) {
  const child = spawnNode([`${HERE}loadgen.mjs`], {files, ipc: true})
  const waiting = new Map()
  child.on('message', (message) => {
    const queue = waiting.get(message.op)
    queue?.shift()?.(message)
  })
  const wait = (op, timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load generator: no "${op}" in ${timeoutMs} ms`)), timeoutMs)
      if (!waiting.has(op)) waiting.set(op, [])
      waiting.get(op).push((message) => {
        clearTimeout(timer)
        resolve(message)
      })
    })
  return {
    wait,
    request(command, replyOp, timeoutMs = 120_000) {
      const reply = wait(replyOp, timeoutMs)
      child.send(command)
      return reply
    },
    async stop() {
      if (child.connected) child.send({op: 'close'})
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), new Promise((resolve) => setTimeout(resolve, 3000))])
      child.kill('SIGKILL')
    },
  }
}

/** Percentile (nearest rank) of a sorted Float64Array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

/** Joins Float64Arrays and sorts numerically. */
export function mergeSorted(arrays) {
  const total = arrays.reduce((sum, array) => sum + array.length, 0)
  const merged = new Float64Array(total)
  let offset = 0
  for (const array of arrays) {
    merged.set(array, offset)
    offset += array.length
  }
  return merged.sort()
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)]
}

/** Splits `total` into `parts` near-equal integers. */
export const split = (total, parts) => Array.from({length: parts}, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0))

export const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toLocaleString('en-US', {maximumFractionDigits: digits, minimumFractionDigits: digits}) : 'n/a')
