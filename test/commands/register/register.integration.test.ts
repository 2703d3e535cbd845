import {spawn} from 'node:child_process'
import {once} from 'node:events'
import {mkdtemp, readdir, rm, stat, writeFile} from 'node:fs/promises'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {BIN, runCli, startRegistry, type RunningRegistry} from './spawn.js'

// Never touch a developer's real keychain from tests.
const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}
const running: RunningRegistry[] = []
const children: Array<ReturnType<typeof spawn>> = []
const dirs: string[] = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function workspace() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-cli-'))
  dirs.push(dir)
  const card = join(dir, 'card.json')
  await writeFile(card, JSON.stringify({name: 'Alpha Translator', description: 'Translates.', tags: ['translate'], category: 'language.translation', availability: {now: true}}))
  return {dir, card, creds: join(dir, 'creds'), data: join(dir, 'data')}
}
async function freePort() {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const {port} = server.address() as {port: number}
  server.close()
  return port
}
async function serveOn(data: string, port?: number) {
  const server = await startRegistry(data, port ? ['--port', String(port)] : [])
  running.push(server)
  return server
}
const cli = (args: string[], cwd?: string) => runCli(args, ENV, cwd)

describe('registry CLI', () => {
  it('register → agent up --once → agent show / identity, with secrets in 0600 files', async () => {
    const w = await workspace()
    const server = await serveOn(w.data)
    const reg = await cli(['register', 'alpha', '--registry', server.url, '--credentials', w.creds, '--capabilities', 'translate', '--json'])
    expect(reg.code, reg.stderr).toBe(0)
    const registered = JSON.parse(reg.stdout)
    expect(registered).toMatchObject({agent_id: 'alpha', verified: true, rotated: false, identity_key: 'created', secrets_backend: 'file'})
    expect(registered.did).toMatch(/^did:key:z6Mk/)
    expect(registered.api_key).toBeUndefined()
    for (const file of await readdir(w.creds)) expect((await stat(join(w.creds, file))).mode & 0o777, file).toBe(0o600)

    const up = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--json'])
    expect(up.code, up.stderr).toBe(0)
    const events = up.stdout.trim().split('\n').map((line) => JSON.parse(line))
    expect(events[0]).toMatchObject({event: 'heartbeat', agent_id: 'alpha', beat: 1, display_name: 'Alpha Translator'})
    expect(events.at(-1)).toMatchObject({event: 'stopped', beats: 1})

    const show = await cli(['agent', 'show', 'alpha', '--registry', server.url, '--json'])
    expect(JSON.parse(show.stdout)).toMatchObject({agent_id: 'alpha', online: true, display_name: 'Alpha Translator', capabilities: ['translate'], did: registered.did})
    const human = await cli(['agent', 'show', 'alpha', '--registry', server.url])
    expect(human.stdout).toContain('online')
    const identity = await cli(['agent', 'identity', 'alpha', '--registry', server.url, '--json'])
    expect(JSON.parse(identity.stdout)).toMatchObject({agent_id: 'alpha', did: registered.did, verified: true, handle: `${server.url}/agent/alpha`})
  })

  it('re-registering with the kept key rotates the api_key; someone else gets 409', async () => {
    const w = await workspace()
    const server = await serveOn(w.data)
    await cli(['register', 'alpha', '--registry', server.url, '--credentials', w.creds])
    const again = await cli(['register', 'alpha', '--registry', server.url, '--credentials', w.creds, '--json'])
    expect(JSON.parse(again.stdout)).toMatchObject({rotated: true, identity_key: 'reused'})
    const up = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once'])
    expect(up.code, up.stderr).toBe(0)
    const stranger = await cli(['register', 'alpha', '--registry', server.url, '--credentials', join(w.dir, 'other'), '--json'])
    expect(stranger.code).toBe(1)
    expect(JSON.parse(stranger.stdout).error.code).toBe('agent_exists')
  })

  it('fails clearly: bad id, bad card, unknown agent, unreachable registry', async () => {
    const w = await workspace()
    const badId = await cli(['register', 'a b', '--credentials', w.creds])
    expect(badId.code).toBe(2)
    expect(badId.stderr).toContain('agent_id')
    await writeFile(join(w.dir, 'bad.json'), JSON.stringify({name: 'x', description: 'y'.repeat(501)}))
    const badCard = await cli(['agent', 'up', '--card', join(w.dir, 'bad.json'), '--credentials', w.creds, '--json'])
    expect(badCard.code).toBe(1)
    expect(JSON.parse(badCard.stdout).error).toMatchObject({code: 'invalid_card', field: 'description'})
    const noAgent = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds])
    expect(noAgent.code).toBe(2)
    expect(noAgent.stderr).toContain('mesh register')
    const port = await freePort()
    const unreachable = await cli(['agent', 'show', 'alpha', '--registry', `http://127.0.0.1:${port}`])
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain('Cannot reach the registry')
    expect(unreachable.stderr).not.toContain('    at ')
    const server = await serveOn(w.data)
    const missing = await cli(['agent', 'show', 'ghost', '--registry', server.url, '--json'])
    expect(JSON.parse(missing.stdout).error.code).toBe('agent_not_found')
  })

  it('agent up survives a registry restart and stops cleanly on SIGINT', async () => {
    const w = await workspace()
    const port = await freePort()
    const first = await serveOn(w.data, port)
    await cli(['register', 'alpha', '--registry', first.url, '--credentials', w.creds])
    const agent = spawn(process.execPath, [BIN, 'agent', 'up', '--card', w.card, '--credentials', w.creds, '--interval', '5'], {env: {...process.env, ...ENV}, stdio: ['ignore', 'pipe', 'pipe']})
    children.push(agent)
    const events: Array<Record<string, unknown>> = []
    let buffer = ''
    const waiters: Array<() => void> = []
    agent.stdout!.on('data', (chunk) => {
      buffer += chunk
      let newline
      while ((newline = buffer.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buffer.slice(0, newline)))
        buffer = buffer.slice(newline + 1)
        for (const wake of waiters.splice(0)) wake()
      }
    })
    const waitFor = async (predicate: (e: Record<string, unknown>) => boolean) => {
      while (!events.some(predicate)) await new Promise<void>((wake) => waiters.push(wake))
    }
    await waitFor((e) => e.event === 'heartbeat')
    first.child.kill('SIGKILL')
    await first.exited
    await waitFor((e) => e.event === 'retry')
    await serveOn(w.data, port)
    await waitFor((e) => e.event === 'heartbeat' && (e.beat as number) >= 2)
    agent.kill('SIGINT')
    const [code] = await once(agent, 'exit')
    expect(code).toBe(0)
    expect(events.at(-1)).toMatchObject({event: 'stopped'})
    expect(events.find((e) => e.event === 'retry')).toMatchObject({error: {code: 'registry_unreachable'}})
  })
})
