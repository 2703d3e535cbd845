/**
 * The registry commands' failures as a user meets them: exit code, one clear
 * line (or one JSON error), no stack trace, no secret. Spawns the built CLI.
 */
import {once} from 'node:events'
import {chmod, mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {createServer, type Server} from 'node:http'
import {createServer as createNetServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {runCli, startRegistry, type RunningRegistry} from './spawn.js'

const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}
const SECRET = 'sk_live_do_not_print_me_0123456789'
const dirs: string[] = []
const running: RunningRegistry[] = []
let fake: Server
let fakeUrl = ''
let flakyPages = 0

// One impostor: each path prefix answers in its own wrong way.
beforeAll(async () => {
  fake = createServer((req, res) => {
    const [, kind] = req.url!.split('/')
    if (kind === 'tokens-only') {
      // Mints tokens, but is a plain web server for everything else (the WebSocket upgrade included).
      if (req.url!.endsWith('/token')) return void res.writeHead(200, {'content-type': 'application/json'}).end('{"token":"t"}')
      return void res.writeHead(200, {'content-type': 'text/html'}).end('<html></html>')
    }
    if (kind === 'flaky') {
      // A registry that hands out one page of messages, then fails.
      if (req.url!.endsWith('/token')) return void res.writeHead(200, {'content-type': 'application/json'}).end('{"token":"t"}')
      if (flakyPages++ === 0) {
        const page = [1, 2].map((id) => ({id, ts: new Date().toISOString(), from: 'beta', payload: {n: id}}))
        return void res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({messages: page}))
      }
      return void res.writeHead(500, {'content-type': 'text/plain'}).end('boom')
    }
    if (kind === 'html') return void res.writeHead(200, {'content-type': 'text/html'}).end('<html><body>Welcome</body></html>')
    if (kind === 'shape') return void res.writeHead(200, {'content-type': 'application/json'}).end('{"hello":"world"}')
    res.writeHead(200, {'content-type': 'application/json'}).end('null')
  }).listen(0, '127.0.0.1')
  await once(fake, 'listening')
  fakeUrl = `http://127.0.0.1:${(fake.address() as {port: number}).port}`
})
afterAll(() => fake.close())
afterEach(async () => {
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function workspace() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-errors-'))
  dirs.push(dir)
  const card = join(dir, 'card.json')
  await writeFile(card, JSON.stringify({name: 'Alpha', description: 'Translates.', tags: ['translate']}))
  return {dir, card, creds: join(dir, 'creds')}
}
async function freePort() {
  const server = createNetServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const {port} = server.address() as {port: number}
  server.close()
  return port
}
/** A profile and an api_key file as `mesh register` leaves them, without a registry. */
async function registeredFrom(creds: string, registry: string, keyMode = 0o600) {
  await mkdir(creds, {recursive: true, mode: 0o700})
  const profile = {registry, pubkey: null, did: null, handle: `${registry}/agent/alpha`, secrets: 'file', registered_at: new Date().toISOString()}
  await writeFile(join(creds, 'agents.json'), JSON.stringify({version: 1, agents: {alpha: profile}}))
  const file = join(creds, `api_key.alpha@${new URL(registry).host.replace(':', '~3a~')}`)
  await writeFile(file, SECRET, {mode: keyMode})
  await chmod(file, keyMode)
}
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, {...ENV, ...env})

/** What every failure must look like. */
function expectCleanFailure(result: {code: number; stdout: string; stderr: string}, exit: number) {
  expect(result.code, result.stderr).toBe(exit)
  const all = result.stdout + result.stderr
  expect(all).not.toMatch(/\n\s+at /)
  expect(all).not.toMatch(/TypeError|node_modules|\/src\/|\/dist\//)
  expect(all).not.toContain(SECRET)
  expect(all).not.toContain('hunter2')
}
/** The JSON error of a --json run: stdout is one document, or NDJSON whose last line is the error. */
function jsonError(stdout: string): {code: string; message: string} {
  try {
    return JSON.parse(stdout).error
  } catch {
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line))
    return lines.at(-1).error
  }
}

describe('registry commands against a server that is not a mesh registry', () => {
  it.each([
    ['html', 'not JSON'],
    ['shape', 'agent_id is missing'],
    ['null', 'JSON null'],
  ])('agent show, agent identity and search refuse a %s answer with registry_bad_answer', async (kind, words) => {
    for (const args of [['agent', 'show', 'alpha'], ['agent', 'identity', 'alpha'], ['search', 'ocr']]) {
      const human = await cli([...args, '--registry', `${fakeUrl}/${kind}`])
      expectCleanFailure(human, 1)
      expect(human.stderr).toContain('registry_bad_answer')
      const json = await cli([...args, '--registry', `${fakeUrl}/${kind}`, '--json'])
      expectCleanFailure(json, 1)
      expect(jsonError(json.stdout).code).toBe('registry_bad_answer')
      if (args[0] === 'agent') expect(jsonError(json.stdout).message).toContain(words)
    }
  })
  it('refuses an empty agent id before calling anyone (it would read the listing)', async () => {
    const result = await cli(['agent', 'show', '', '--registry', fakeUrl, '--json'])
    expectCleanFailure(result, 2)
    expect(jsonError(result.stdout).code).toBe('usage_agent_id')
  })
})

describe('agent up failures', () => {
  it('--once exits 1 at the first failed heartbeat instead of retrying forever; --json keeps stdout NDJSON', async () => {
    const w = await workspace()
    const registry = `http://127.0.0.1:${await freePort()}`
    await registeredFrom(w.creds, registry)
    const result = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--json'])
    expectCleanFailure(result, 1)
    expect(jsonError(result.stdout)).toMatchObject({code: 'registry_unreachable'})
    const impostor = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--registry', `${fakeUrl}/html`], {MESH_API_KEY: SECRET})
    expectCleanFailure(impostor, 1)
    expect(impostor.stderr).toContain('registry_bad_answer')
  })
  it('names the card file: missing is a usage error, a YAML error is one line', async () => {
    const w = await workspace()
    const missing = await cli(['agent', 'up', '--card', join(w.dir, 'nope.json'), '--credentials', w.creds, '--json'])
    expectCleanFailure(missing, 2)
    expect(jsonError(missing.stdout).code).toBe('usage_card_not_found')
    await writeFile(join(w.dir, 'card.yaml'), 'name: [\n')
    const yaml = await cli(['agent', 'up', '--card', join(w.dir, 'card.yaml'), '--credentials', w.creds, '--json'])
    expectCleanFailure(yaml, 1)
    const error = jsonError(yaml.stdout)
    expect(error.code).toBe('card_unreadable')
    expect(error.message).toContain('card.yaml')
    expect(error.message).not.toContain('\n')
  })
  it('refuses an api_key file others can read, without printing it', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, fakeUrl, 0o644)
    const result = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--json'])
    expectCleanFailure(result, 1)
    expect(jsonError(result.stdout)).toMatchObject({code: 'secret_file_mode'})
    expect(jsonError(result.stdout).message).toContain('chmod 600')
  })
  it('refuses --credentials naming a file, and a malformed --agent, as usage errors', async () => {
    const w = await workspace()
    await writeFile(join(w.dir, 'creds-file'), 'x')
    const file = await cli(['agent', 'up', '--card', w.card, '--credentials', join(w.dir, 'creds-file')])
    expectCleanFailure(file, 2)
    expect(file.stderr).toContain('usage_credentials_dir')
    const agent = await cli(['inbox', 'read', '--agent', 'a b', '--credentials', w.creds, '--json'])
    expectCleanFailure(agent, 2)
    expect(jsonError(agent.stdout).code).toBe('usage_agent_id')
  })
})

describe('inbox read failures', () => {
  it('--all --json still prints the messages it consumed before a later page failed, and exits 1', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, `${fakeUrl}/flaky`)
    flakyPages = 0
    const result = await cli(['inbox', 'read', '--all', '--limit', '2', '--credentials', w.creds, '--json'])
    expectCleanFailure(result, 1)
    const answer = JSON.parse(result.stdout)
    expect(answer.messages.map((m: {id: number}) => m.id)).toEqual([1, 2])
    expect(answer.error.code).toBe('http_500')
  })
})

describe('inbox watch failures', () => {
  it('says the address did not open the agent WebSocket, as one NDJSON line', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, `${fakeUrl}/tokens-only`)
    const result = await cli(['inbox', 'watch', '--credentials', w.creds, '--json'])
    expectCleanFailure(result, 1)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(jsonError(result.stdout).message).toContain('did not open the agent WebSocket')
  })
})

describe('register failures', () => {
  it('checks agents.json and the identity key before registering anything', async () => {
    const w = await workspace()
    const registry = await startRegistry(join(w.dir, 'data'))
    running.push(registry)
    await mkdir(w.creds, {recursive: true})
    await writeFile(join(w.creds, 'agents.json'), '{not json')
    const corrupt = await cli(['register', 'alpha', '--registry', registry.url, '--credentials', w.creds, '--json'])
    expectCleanFailure(corrupt, 1)
    expect(jsonError(corrupt.stdout).code).toBe('credentials_unreadable')
    // Nothing was registered: the api_key would have been lost.
    const show = await cli(['agent', 'show', 'alpha', '--registry', registry.url, '--json'])
    expect(jsonError(show.stdout).code).toBe('agent_not_found')

    const other = join(w.dir, 'other')
    await mkdir(other, {recursive: true, mode: 0o700})
    await writeFile(join(other, 'identity.alpha'), `garbage ${SECRET}`, {mode: 0o600})
    const garbage = await cli(['register', 'alpha', '--registry', registry.url, '--credentials', other, '--json'])
    expectCleanFailure(garbage, 1)
    expect(JSON.parse(garbage.stdout)).toEqual({error: {code: 'identity_key_unreadable', message: expect.stringContaining('not an Ed25519 private key')}})
  })
})

// The serve commands' refusals and start failures: test/commands/serve/checks.integration.test.ts.
