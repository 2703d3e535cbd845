/**
 * The CLI wires --proxy (or MESH_PROXY) and the relay limits through to both
 * servers: a per-IP limit counts per X-Forwarded-For address with it, per
 * socket address without. (Every limit, both ways: test/http/proxy-limits.integration.test.ts.)
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {SERVICES, startServer, type RunningServer, type Service} from '../../support/cli.js'

const A = '203.0.113.1'
const B = '203.0.113.2'
const running: RunningServer[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function start(service: Service, args: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-proxy-cli-'))
  dirs.push(dir)
  const server = await startServer(service, ['--port', '0', '--data', join(dir, 'data'), ...args], {env})
  running.push(server)
  return server
}
const post = async (server: RunningServer, path: string, ip: string, body: unknown = {}) =>
  (await fetch(server.url + path, {method: 'POST', headers: {'content-type': 'application/json', 'x-forwarded-for': ip}, body: JSON.stringify(body)})).status
const sockets: WebSocket[] = []
afterEach(() => {
  for (const ws of sockets.splice(0)) ws.terminate()
})
/** 101 once the socket opens (it stays open until the test ends), else the refusal's status. */
const openSocket = (url: string) =>
  new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(url)
    sockets.push(ws)
    ws.on('error', () => {})
    ws.once('open', () => resolve(101))
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode!))
    ws.once('error', reject)
  })

describe.each(SERVICES)('mesh serve %s', (service) => {
  it('--proxy: cluster creations count per forwarded address (--max-creations-per-hour 1)', async () => {
    const server = await start(service, ['--proxy', '--max-creations-per-hour', '1'])
    expect([await post(server, '/v1/clusters', A), await post(server, '/v1/clusters', A), await post(server, '/v1/clusters', B)]).toEqual([201, 429, 201])
  })
  it('MESH_PROXY=1 does the same; without it X-Forwarded-For is ignored', async () => {
    const behind = await start(service, ['--max-creations-per-hour', '1'], {MESH_PROXY: '1'})
    expect([await post(behind, '/v1/clusters', A), await post(behind, '/v1/clusters', B)]).toEqual([201, 201])
    const direct = await start(service, ['--max-creations-per-hour', '1'])
    expect([await post(direct, '/v1/clusters', A), await post(direct, '/v1/clusters', B)]).toEqual([201, 429])
  })
  it('passes --max-members to the relay', async () => {
    const server = await start(service, ['--max-members', '1', '--json'])
    const res = await fetch(`${server.url}/v1/clusters`, {method: 'POST', headers: {'content-type': 'application/json'}, body: '{"visibility":"public","name":"Small"}'})
    const {ws} = (await res.json()) as {ws: string}
    expect(await openSocket(`${ws}?agent=a`)).toBe(101)
    expect(await openSocket(`${ws}?agent=b`)).toBe(429)
  })
})

describe('mesh serve registry --proxy', () => {
  it('counts registrations per forwarded address', async () => {
    const behind = await start('registry', ['--proxy', '--rate-limit-register', '1'])
    const register = (server: RunningServer, id: string, ip: string) => post(server, '/v1/agents/register', ip, {agent_id: id})
    expect([await register(behind, 'alpha', A), await register(behind, 'bravo', A), await register(behind, 'charlie', B)]).toEqual([201, 429, 201])
    const direct = await start('registry', ['--rate-limit-register', '1'])
    expect([await register(direct, 'alpha', A), await register(direct, 'bravo', B)]).toEqual([201, 429])
  })
})
