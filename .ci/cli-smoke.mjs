// The installed CLI on the Node that runs this file (.ci/other-node.sh runs it on Node 22 and 24): the
// version line, `mesh init` then `mesh validate` in a temp folder, and `mesh serve registry` (SQLite
// through better-sqlite3, the one binding compiled per Node) answering /health and stopping on SIGTERM.
// Plain JavaScript, so it runs without the build or vitest; exits non-zero on the first step that fails.
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'

const repo = new URL('..', import.meta.url).pathname
const mesh = join(repo, 'bin', 'run.js')
const env = {...process.env, NO_COLOR: '1'}
const temp = mkdtempSync(join(tmpdir(), 'mesh-smoke-'))

function fail(step, detail) {
  console.error(`cli smoke on node ${process.version}: ${step} failed\n${detail}`)
  rmSync(temp, {recursive: true, force: true})
  process.exit(1)
}

function run(step, args) {
  const result = spawnSync(process.execPath, [mesh, ...args], {env, encoding: 'utf8', timeout: 60_000})
  if (result.status !== 0) fail(step, `exit ${result.status ?? result.signal}\n${result.stdout}${result.stderr}`)
  return result.stdout
}

const {version} = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))
const line = run('mesh --version', ['--version'])
if (!line.startsWith(`mesh/${version} `) || !line.includes(`node-${process.version}`)) fail('mesh --version', line)

const project = join(temp, 'project')
run('mesh init', ['init', project, '--yes', '--name', 'smoke'])
run('mesh validate', ['validate', project])

// The registry prints one JSON line per event under --json: "listening" with its URL, "stopped" on SIGTERM.
const server = spawn(process.execPath, [mesh, 'serve', 'registry', '--port', '0', '--data', join(temp, 'data'), '--json'], {env, stdio: ['ignore', 'pipe', 'pipe']})
let stderr = ''
server.stderr.on('data', (chunk) => (stderr += chunk))
const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve(code ?? signal)))
const events = createInterface({input: server.stdout})
const timer = setTimeout(() => {
  server.kill('SIGKILL')
  fail('mesh serve registry', `no answer within 60 s\n${stderr}`)
}, 60_000)
const seen = []
for await (const text of events) {
  const event = JSON.parse(text)
  seen.push(event.event)
  if (event.event === 'listening') {
    const response = await fetch(new URL('/health', event.url)).catch((error) => ({status: String(error)}))
    const body = response.json ? await response.json() : null
    if (response.status !== 200 || body?.ok !== true || body?.service !== 'registry') {
      server.kill('SIGKILL')
      fail('GET /health', `${response.status} ${JSON.stringify(body)}\n${stderr}`)
    }
    server.kill('SIGTERM')
  }
}
const code = await exited
clearTimeout(timer)
if (code !== 0 || seen.join() !== 'listening,stopped') fail('mesh serve registry', `exit ${code}, events ${seen.join()}\n${stderr}`)

rmSync(temp, {recursive: true, force: true})
console.log(`cli smoke on node ${process.version}: --version, init, validate, serve registry /health and stop: ok`)
