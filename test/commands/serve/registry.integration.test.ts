import {mkdtemp, readFile, rm, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli, startServer, type RunningServer} from '../../support/cli.js'

const running: RunningServer[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})
async function tempData() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-serve-'))
  dirs.push(dir)
  return join(dir, 'data')
}
async function start(data: string, extra: string[] = []) {
  const server = await startServer('registry', ['--port', '0', '--data', data, ...extra])
  running.push(server)
  return server
}
const json = async (res: Response): Promise<any> => res.json()
const post = (url: string, body: unknown) => fetch(url, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})

describe('mesh serve registry', () => {
  it('serves /health, the registry and the relay; exits 0 on SIGTERM', async () => {
    const data = await tempData()
    const server = await start(data)
    // One /health for both services: the registry's fields, and the relay's view under `relay`.
    const health = await json(await fetch(`${server.url}/health`))
    expect(health).toMatchObject({ok: true, service: 'registry', bus: {kind: 'local', connected: true}, peers: [], relay: {peers: []}})
    expect(health.relay.node_id).toBe(health.node_id)
    const registered = await post(`${server.url}/v1/agents/register`, {agent_id: 'alpha'})
    expect(registered.status).toBe(201)
    expect((await json(registered)).hub_url).toBe(server.url)
    expect((await fetch(`${server.url}/v1/clusters`)).status).toBe(200)
    const unknown = await fetch(`${server.url}/nope`)
    expect([unknown.status, (await json(unknown)).error.code]).toEqual([404, 'not_found'])
    expect((await stat(join(data, 'registry-admin.key'))).mode & 0o777).toBe(0o600)
    expect((await stat(join(data, 'mesh.db'))).mode & 0o777).toBe(0o600)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('keeps agents, api keys, tokens and the admin key across SIGKILL and restart', async () => {
    const data = await tempData()
    const first = await start(data)
    const keys: Record<string, string> = {}
    for (const id of ['alpha', 'bravo', 'charlie']) keys[id] = (await json(await post(`${first.url}/v1/agents/register`, {agent_id: id, capabilities: [id]}))).api_key
    const token = (await json(await post(`${first.url}/v1/agents/token`, {agent_id: 'alpha', api_key: keys.alpha}))).token
    const adminBefore = await readFile(join(data, 'registry-admin.key'), 'utf8')
    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')

    const second = await start(data)
    for (const id of ['alpha', 'bravo', 'charlie']) {
      const res = await post(`${second.url}/v1/agents/token`, {agent_id: id, api_key: keys[id]})
      expect(res.status, id).toBe(200)
    }
    const record = await (await fetch(`${second.url}/v1/agents/bravo`)).json()
    expect(record).toMatchObject({agent_id: 'bravo', capabilities: ['bravo'], online: true})
    // The JWT secret survived: a token minted before the crash still authenticates.
    const patch = await fetch(`${second.url}/v1/agents/me`, {method: 'PATCH', headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body: '{"description":"after restart"}'})
    expect(patch.status).toBe(200)
    expect(await readFile(join(data, 'registry-admin.key'), 'utf8')).toBe(adminBefore)
    const printed = await runCli(['registry', 'admin-key', '--data', data])
    expect(printed.code).toBe(0)
    expect(printed.stdout.trim()).toBe(adminBefore.trim())
    second.child.kill('SIGINT')
    expect(await second.exited).toBe(0)
  })
})
