/**
 * `mesh agent serve` as a user runs it (the built binary): the echo example
 * served and called, a clean stop on SIGINT, registration and heartbeat on a
 * real `mesh serve registry`, the paid example's usage error and its 402,
 * folder errors on one line.
 */
import {once} from 'node:events'
import {copyFile, mkdtemp, rm, writeFile} from 'node:fs/promises'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {REPO_ROOT, runCli, spawnCli, startServer, type SpawnedCli} from '../../support/cli.js'

// Never a developer's keychain, registry or api key.
const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: '', MESH_LOG_LEVEL: 'warn'}
const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const ECHO = join(REPO_ROOT, 'examples/echo')
const PAID = join(REPO_ROOT, 'examples/paid')

const children: SpawnedCli[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

/** A port nothing listens on (for a chain node that is down, or a fixed --port). */
async function freePort() {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const {port} = server.address() as {port: number}
  await new Promise((done) => server.close(done))
  return port
}

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-agent-serve-'))
  dirs.push(dir)
  return dir
}

type Event = Record<string, any>

/** `mesh agent serve …args` on a free port; resolves with the process and its `listening` event. */
async function serveAgent(args: string[]) {
  const agent = spawnCli(['agent', 'serve', ...args, ...(args.includes('--port') ? [] : ['--port', '0'])], {env: ENV})
  children.push(agent)
  const listening = (await agent.nextJson()) as Event
  expect(listening.event).toBe('listening')
  /** Reads events until one matches; returns it. */
  const waitFor = async (match: (event: Event) => boolean): Promise<Event> => JSON.parse(await agent.waitFor((line) => match(JSON.parse(line))))
  return {agent, listening, waitFor}
}

/** A response's JSON body. */
const read = async (response: Response | Promise<Response>): Promise<Event> => (await (await response).json()) as Event
const post = (url: string, body: unknown) => fetch(url, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})

describe('mesh agent serve', () => {
  it('serves the echo example: the card with url = the public URL, the skill, /health; SIGINT stops it with exit 0', async () => {
    const {agent, listening} = await serveAgent([ECHO])
    expect(listening).toMatchObject({service: 'agent', agent_id: 'echo', skills: ['echo'], paid: [], registry: null})
    expect(listening.public_url).toBe(listening.url)

    const card = await fetch(`${listening.url}/.well-known/agent.json`)
    expect(card.status).toBe(200)
    expect(card.headers.get('access-control-allow-origin')).toBe('*')
    expect(await read(card)).toMatchObject({name: 'Echo', url: listening.url, skills: [{id: 'echo'}]})

    const echoed = await post(`${listening.url}/v1/echo`, {message: 'hello', id: 7})
    expect(echoed.status).toBe(200)
    expect(await read(echoed)).toEqual({message: 'hello', id: 7})
    const refused = await post(`${listening.url}/v1/echo`, {})
    expect(refused.status).toBe(400)
    expect((await read(refused)).error).toMatchObject({code: 'invalid_input', field: 'message'})
    expect(await read(fetch(`${listening.url}/health`))).toEqual({ok: true, agent_id: 'echo'})
    // A caller nobody here special-cased for the folder: mesh call.
    const called = await runCli(['call', listening.url, 'echo', '--data', '{"message": "via mesh call"}', '--no-sign', '--json'], {env: ENV})
    expect(called.code).toBe(0)
    expect(JSON.parse(called.stdout)).toEqual({message: 'via mesh call'})

    expect(await agent.stop('SIGINT')).toBe(0)
    expect(JSON.parse(agent.lines.at(-1)!)).toMatchObject({event: 'stopped', service: 'agent', signal: 'SIGINT'})
    await expect(fetch(`${listening.url}/health`)).rejects.toThrow()
  })

  it('serves on the given public URL and agent id', async () => {
    const port = await freePort()
    const {agent, listening} = await serveAgent([ECHO, '--port', String(port), '--public-url', 'https://echo.example.net/', '--agent-id', 'my-echo'])
    expect(listening).toMatchObject({url: `http://127.0.0.1:${port}`, public_url: 'https://echo.example.net', agent_id: 'my-echo'})
    expect((await read(fetch(`${listening.url}/.well-known/agent.json`))).url).toBe('https://echo.example.net')
    expect(await read(fetch(`${listening.url}/health`))).toMatchObject({agent_id: 'my-echo'})
    expect(await agent.stop('SIGTERM')).toBe(0)
  })

  it('takes the registry from MESH_REGISTRY, and --no-register serves without one', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`
    const creds = join(await tempDir(), 'creds')
    const fromEnv = spawnCli(['agent', 'serve', ECHO, '--port', '0', '--credentials', creds], {env: {...ENV, MESH_REGISTRY: dead}})
    children.push(fromEnv)
    expect(await fromEnv.nextJson()).toMatchObject({event: 'listening', registry: dead})
    // The registry is down: the agent keeps serving and retries.
    expect(await fromEnv.nextJson()).toMatchObject({event: 'retry', step: 'register', error: {code: 'registry_unreachable'}})
    expect(await fromEnv.stop('SIGINT')).toBe(0)

    const unregistered = spawnCli(['agent', 'serve', ECHO, '--port', '0', '--no-register'], {env: {...ENV, MESH_REGISTRY: dead}})
    children.push(unregistered)
    expect(await unregistered.nextJson()).toMatchObject({event: 'listening', registry: null})
    expect(await unregistered.stop('SIGINT')).toBe(0)
  })

  it('registers on a real registry, which lists it online with the DiscoveryCard; a restart reuses the stored api_key', async () => {
    const work = await tempDir()
    const registry = await startServer('registry', ['--data', join(work, 'registry')], {env: ENV})
    children.push(registry)
    const creds = join(work, 'creds')
    const args = [ECHO, '--registry', registry.url, '--credentials', creds, '--interval', '5']

    const first = await serveAgent(args)
    expect(first.listening.registry).toBe(registry.url)
    const registered = await first.waitFor((e) => e.event === 'registered')
    expect(registered).toMatchObject({agent_id: 'echo', registry: registry.url, rotated: false, identity_key: 'created', verified: true})
    expect(await first.waitFor((e) => e.event === 'heartbeat')).toMatchObject({agent_id: 'echo', beat: 1, display_name: 'Echo', owner_class: 'third-party'})

    const record = await read(fetch(`${registry.url}/v1/agents/echo`))
    expect(record).toMatchObject({agent_id: 'echo', online: true, display_name: 'Echo', owner_class: 'third-party', verified: true, capabilities: ['echo', 'test', 'debug']})
    expect(record.agent_card).toMatchObject({endpoint: first.listening.public_url, category: 'developer.testing', accepts: ['application/json']})
    const listed = await read(fetch(`${registry.url}/v1/agents?online=true`))
    expect(listed.agents.map((a: Event) => a.agent_id)).toContain('echo')
    expect(await first.agent.stop('SIGINT')).toBe(0)
    expect(JSON.parse(first.agent.lines.at(-1)!)).toMatchObject({event: 'stopped', beats: expect.any(Number)})
    // The api_key never reaches the output.
    expect(first.agent.lines.join('\n')).not.toMatch(/api_key"|[0-9a-f]{32}/)

    // A second start finds the api_key where the first kept it: no registration, straight to the heartbeat.
    const second = await serveAgent(args)
    const next = await second.waitFor((e) => e.event === 'heartbeat' || e.event === 'registered')
    expect(next.event).toBe('heartbeat')
    const moved = await read(fetch(`${registry.url}/v1/agents/echo`))
    expect(moved.agent_card.endpoint).toBe(second.listening.public_url)
    expect(await second.agent.stop('SIGINT')).toBe(0)
  })

  it('stops with exit 1 when the id is registered by another key', async () => {
    const work = await tempDir()
    const registry = await startServer('registry', ['--data', join(work, 'registry')], {env: ENV})
    children.push(registry)
    const taken = await runCli(['register', 'echo', '--registry', registry.url, '--credentials', join(work, 'someone-else')], {env: ENV})
    expect(taken.code).toBe(0)
    const {agent} = await serveAgent([ECHO, '--registry', registry.url, '--credentials', join(work, 'creds')])
    expect(await agent.exited).toBe(1)
    expect(agent.stderr()).toContain('The agent id "echo" is already registered')
    expect(agent.stderr()).toContain('--agent-id')

    // Under --json the error is the last NDJSON line.
    const json = spawnCli(['agent', 'serve', ECHO, '--port', '0', '--registry', registry.url, '--credentials', join(work, 'creds'), '--json'], {env: ENV})
    children.push(json)
    expect(await json.exited).toBe(1)
    expect(JSON.parse(json.lines.at(-1)!).error).toMatchObject({code: 'agent_exists'})
  })

  it('refuses the paid example without --wallet: a usage error naming the skill', async () => {
    const result = await runCli(['agent', 'serve', PAID, '--json'], {env: ENV})
    expect(result.code).toBe(2)
    const error = JSON.parse(result.stdout).error
    expect(error.code).toBe('usage_wallet_required')
    expect(error.message).toContain('"word-count"')
    expect(error.message).toContain('--wallet')
    const badWallet = await runCli(['agent', 'serve', PAID, '--wallet', 'not-a-wallet', '--json'], {env: ENV})
    expect(badWallet.code).toBe(2)
    expect(JSON.parse(badWallet.stdout).error.code).toBe('usage_wallet')
  })

  it('the paid example with a wallet answers 402 once the allowance (here 0) is used, with no chain node needed', async () => {
    const data = await tempDir()
    const deadPort = await freePort()
    const {agent, listening} = await serveAgent([PAID, '--wallet', WALLET, '--rpc-url', `http://127.0.0.1:${deadPort}`, '--free-per-day', '0', '--data', data])
    expect(listening).toMatchObject({agent_id: 'word-counter', paid: ['word-count'], wallet: WALLET, network: 'solana-devnet', data})

    const answer = await post(`${listening.url}/v1/word-count`, {text: 'the quick brown fox'})
    expect(answer.status).toBe(402)
    expect(answer.headers.get('x-payment-network')).toBe('solana-devnet')
    expect(answer.headers.get('x-payment-address')).toBe(WALLET)
    expect(answer.headers.get('x-payment-amount')).toBe('5000')
    const nonce = answer.headers.get('x-payment-nonce')
    const challenge = await read(answer)
    expect(challenge).toMatchObject({
      x402Version: 1,
      accepts: [{scheme: 'exact', network: 'solana-devnet', resource: '/v1/word-count', payTo: WALLET, asset: 'SOL', lamports: '5000', nonce}],
    })
    expect(challenge.accepts[0].chainPayUrl).toMatch(new RegExp(`^solana:${WALLET}\\?amount=0\\.000005&memo=${nonce}`))
    // mesh call shows the challenge and exits 3.
    const called = await runCli(['call', listening.url, 'word-count', '--data', '{"text": "a b"}', '--no-sign'], {env: ENV})
    expect(called.code).toBe(3)
    expect(called.stdout + called.stderr).toContain('5000 lamports')
    // The body is checked before any payment step (DECISIONS: Paid calls).
    expect((await post(`${listening.url}/v1/word-count`, {})).status).toBe(400)
    expect(await agent.stop('SIGINT')).toBe(0)
  })

  it('serves the paid example free within the allowance, and remembers it across a restart (its SQLite under --data)', async () => {
    const data = await tempDir()
    const args = [PAID, '--wallet', WALLET, '--rpc-url', `http://127.0.0.1:${await freePort()}`, '--free-per-day', '1', '--data', data]
    const first = await serveAgent(args)
    const free = await post(`${first.listening.url}/v1/word-count`, {text: 'one\ntwo lines'})
    expect(free.status).toBe(200)
    expect(await read(free)).toEqual({words: 3, characters: 13, lines: 2, paid_via: 'allowance'})
    expect(await first.agent.stop('SIGINT')).toBe(0)
    const second = await serveAgent(args)
    expect((await post(`${second.listening.url}/v1/word-count`, {text: 'again'})).status).toBe(402)
    expect(await second.agent.stop('SIGINT')).toBe(0)
  })

  it('names a broken handlers file and its line, without a stack trace', async () => {
    const folder = await tempDir()
    await copyFile(join(ECHO, 'agent.json'), join(folder, 'agent.json'))
    await writeFile(join(folder, 'handlers.mjs'), 'export default {\n  echo: async (input) => input,\n  oops oops\n}\n')
    const result = await runCli(['agent', 'serve', folder], {env: ENV})
    expect(result.code).toBe(1)
    expect(result.errorText).toContain(`${join(folder, 'handlers.mjs')}:3 failed to load: SyntaxError: Unexpected identifier`)
    expect(result.stderr).not.toMatch(/\n\s+at /)
    const missing = await runCli(['agent', 'serve', join(folder, 'nope')], {env: ENV})
    expect(missing.code).toBe(2)
    expect(missing.errorText).toContain('No agent folder at')
  })
})
