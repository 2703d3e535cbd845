// What the daemon benchmarks share: the built binary, the environment mesh
// runs in (as the CLI tests run it), a project scaffolded by `mesh init`, and
// `mesh serve --port 0 --json` started and stopped.
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BIN = join(ROOT, 'bin', 'run.js')
/** No colour, no standard catch-up or transport over the network, file secrets. */
export const env = {...process.env, CI: 'true', NO_COLOR: '1', MESH_STANDARD_URL: '', MESH_SECRETS_BACKEND: 'file', MESH_DAEMON_TRANSPORT: 'off'}

export {option} from '../options.mjs'

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
export const sortedOf = (values) => [...values].sort((a, b) => a - b)
export const ms = (value) => `${value.toFixed(1)} ms`
export const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay))

export function scaffold(name) {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-bench-daemon-'))
  const init = spawnSync(process.execPath, [BIN, 'init', dir, '--yes', '--name', name, '--hub', 'https://hub.example.com'], {env, encoding: 'utf8'})
  if (init.status !== 0) throw new Error(`mesh init exited ${init.status}: ${init.stderr}`)
  return dir
}

async function health(url) {
  try {
    return (await fetch(`${url}/health`)).status === 200
  } catch {
    return false
  }
}

/** Spawns `mesh serve --port 0 --json …args` in `dir` and resolves once /health answers 200, with the time it took. */
export async function startDaemon(dir, args = []) {
  const started = performance.now()
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--log-level', 'warn', ...args], {cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
  const lines = createInterface({input: child.stdout})
  const listening = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`mesh serve exited ${code}: ${stderr}`)))
    lines.on('line', (line) => {
      try {
        const event = JSON.parse(line)
        if (event.event === 'listening') resolve(event)
      } catch {
        // Not a JSON line.
      }
    })
  })
  while (!(await health(listening.url))) await sleep(2)
  const startMs = performance.now() - started
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {child, url: listening.url, pid: listening.pid, startMs, stop: () => (child.kill('SIGTERM'), exited)}
}
