/**
 * mesh register as a user runs it against a real `mesh serve registry`: the
 * agent registered, its secrets in 0600 files, and the agent commands then
 * working from those credentials. Spawns the built CLI.
 */
import {existsSync} from 'node:fs'
import {mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {runCli, startServer, type RunningServer} from '../../support/cli.js'

// Never touch a developer's real keychain from tests.
const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}
const running: RunningServer[] = []
const dirs: string[] = []
afterEach(async () => {
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
async function serveOn(data: string) {
  const server = await startServer('registry', ['--data', data])
  running.push(server)
  return server
}
const cli = (args: string[]) => runCli(args, {env: ENV})

describe('mesh register', () => {
  it("registers from a subfolder of a project into its .mesh/, with no stray .mesh/ there, and refuses an agent called clients", async () => {
    const w = await workspace()
    const server = await serveOn(w.data)
    const root = join(w.dir, 'project')
    expect((await cli(['init', root, '--yes'])).code).toBe(0)
    const deep = join(root, 'src', 'deep')
    await mkdir(deep, {recursive: true})
    const inSubfolder = (args: string[]) => runCli(args, {env: ENV, cwd: deep})

    const reserved = await inSubfolder(['register', 'clients', '--registry', server.url, '--json'])
    expect(reserved.code).toBe(2)
    expect(JSON.parse(reserved.stdout).error).toMatchObject({code: 'usage_agent_id_reserved', message: expect.stringContaining('.mesh/agents/clients.yaml')})

    const reg = await inSubfolder(['register', 'alpha', '--registry', server.url, '--json'])
    expect(reg.code, reg.stderr).toBe(0)
    expect(JSON.parse(reg.stdout).identity_file).toBe(join(root, '.mesh', 'agents', 'alpha.yaml'))
    expect(existsSync(join(deep, '.mesh'))).toBe(false)
    expect(parse(await readFile(join(root, '.mesh', 'agents', 'alpha.yaml'), 'utf8'))).toMatchObject({id: 'alpha', registry: server.url, key: {store: 'file', name: 'identity.alpha'}})
    expect(await readdir(join(root, '.mesh', 'credentials'))).toEqual(expect.arrayContaining(['identity.alpha']))
    // The agent is found again from another subfolder: the inbox acts as it without --agent or --credentials.
    const status = await runCli(['inbox', 'status', '--json'], {env: ENV, cwd: join(root, '.mesh', 'modules')})
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({pending: {inbox: 0}})
  })

  it('register → agent up --once → agent show / identity, with secrets in 0600 files', async () => {
    const w = await workspace()
    const server = await serveOn(w.data)
    const reg = await cli(['register', 'alpha', '--registry', server.url, '--credentials', w.creds, '--capabilities', 'translate', '--json'])
    expect(reg.code, reg.stderr).toBe(0)
    const registered = JSON.parse(reg.stdout)
    expect(registered).toMatchObject({agent_id: 'alpha', verified: true, rotated: false, identity_key: 'created', secrets_backend: 'file'})
    expect(registered.did).toMatch(/^did:key:z6Mk/)
    expect(registered.api_key).toBeUndefined()
    // Secrets and the identity file (agents/ inside a folder given with --credentials) are the operator's alone.
    for (const file of await readdir(w.creds)) expect((await stat(join(w.creds, file))).mode & 0o777, file).toBe(file === 'agents' ? 0o700 : 0o600)
    expect((await stat(join(w.creds, 'agents', 'alpha.yaml'))).mode & 0o777).toBe(0o600)

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

  it('refuses a bad agent id as a usage error', async () => {
    const w = await workspace()
    const badId = await cli(['register', 'a b', '--credentials', w.creds])
    expect(badId.code).toBe(2)
    expect(badId.stderr).toContain('agent_id')
  })
})
