/**
 * Every per-IP limit of both servers, behind a proxy and not: with `proxy`,
 * each limit counts per forwarded address (the last X-Forwarded-For entry);
 * without it, per socket address, forwarded headers ignored. Servers are
 * built as `mesh serve registry` and `mesh serve relay` build them.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {startRelayServer} from '../../src/cluster/server.js'
import type {RelayLimits} from '../../src/cluster/types.js'
import {serve} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'
import {buildRegistryServer} from '../../src/registry/compose.js'
import type {RegistryLimits} from '../../src/registry/types.js'

const A = '203.0.113.1'
const B = '203.0.113.2'
const SETUP = '203.0.113.250'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Server {
  url: string
}

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-proxy-'))
  cleanups.push(() => rm(dir, {recursive: true, force: true}))
  return dir
}

async function registryServer(proxy: boolean, limits: Partial<RegistryLimits> = {}, relayLimits: Partial<RelayLimits> = {}): Promise<Server> {
  const built = await buildRegistryServer({dataDir: await tempDir(), publicUrl: 'http://127.0.0.1', logger: silentLogger, limits, relayLimits, proxy})
  const hosted = await serve({services: built.services, logger: silentLogger, port: 0, proxy})
  cleanups.push(async () => {
    await hosted.stop()
    await built.close()
  })
  return {url: hosted.url}
}

async function relayServer(proxy: boolean, limits: Partial<RelayLimits> = {}): Promise<Server> {
  const running = await startRelayServer({port: 0, dataDir: await tempDir(), logger: silentLogger, limits, proxy})
  cleanups.push(() => running.stop())
  return {url: running.url}
}

const from = (ip: string) => ({'x-forwarded-for': ip})

async function call(server: Server, method: string, path: string, ip: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: {...from(ip), ...(body === undefined ? {} : {'content-type': 'application/json'})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get('retry-after')}
}

/** Opens a WebSocket as `ip`: 101 once open (then closed), else the refusal's status and error code. */
function openSocket(server: Server, path: string, ip: string, headers: Record<string, string> = {}): Promise<{status: number; code?: string; retryAfter?: string}> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(server.url.replace('http', 'ws') + path, {headers: {...from(ip), ...headers}})
    ws.once('open', () => {
      ws.close()
      resolve({status: 101})
    })
    ws.once('unexpected-response', (_request, response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk))
      response.on('end', () => resolve({status: response.statusCode!, code: JSON.parse(text).error.code, retryAfter: response.headers['retry-after'] as string}))
    })
    ws.once('error', (error) => reject(error))
  })
}
const statuses = (results: Array<{status: number}>) => results.map((r) => r.status)

describe.each([
  ['registry (with the embedded relay)', registryServer],
  ['relay', (proxy: boolean, _limits: unknown, relayLimits: Partial<RelayLimits>) => relayServer(proxy, relayLimits)],
] as const)('%s', (_name, start) => {
  const startWith = (proxy: boolean, relayLimits: Partial<RelayLimits>) => (start as (p: boolean, l: object, r: Partial<RelayLimits>) => Promise<Server>)(proxy, {}, relayLimits)

  it('cluster creations: per forwarded address with proxy', async () => {
    const server = await startWith(true, {creationsPerIp: 1})
    const results = [await call(server, 'POST', '/v1/clusters', A, {}), await call(server, 'POST', '/v1/clusters', A, {}), await call(server, 'POST', '/v1/clusters', B, {})]
    expect(statuses(results)).toEqual([201, 429, 201])
    expect(results[1].body.error.code).toBe('rate_limited')
    expect(Number(results[1].retryAfter)).toBeGreaterThan(0)
    // A client's own X-Forwarded-For entry before the proxy's does not make it someone else.
    expect((await call(server, 'POST', '/v1/clusters', `${B}, ${A}`, {})).status).toBe(429)
  })
  it('cluster creations: per socket address without proxy (X-Forwarded-For ignored)', async () => {
    const server = await startWith(false, {creationsPerIp: 1})
    const results = [await call(server, 'POST', '/v1/clusters', A, {}), await call(server, 'POST', '/v1/clusters', B, {})]
    expect(statuses(results)).toEqual([201, 429])
  })

  it('cluster sockets: opens per forwarded address with proxy', async () => {
    const server = await startWith(true, {socketOpensPerIp: 1})
    const {cluster_id: id} = (await call(server, 'POST', '/v1/clusters', SETUP, {visibility: 'public', name: 'Open'})).body
    const path = `/v1/clusters/${id}/ws?agent=a`
    const results = [await openSocket(server, path, A), await openSocket(server, path, A), await openSocket(server, path, B)]
    expect(statuses(results)).toEqual([101, 429, 101])
    expect(results[1]).toMatchObject({code: 'rate_limited', retryAfter: expect.stringMatching(/^[1-9]\d*$/)})
  })
  it('cluster sockets: opens per socket address without proxy', async () => {
    const server = await startWith(false, {socketOpensPerIp: 1})
    const {cluster_id: id} = (await call(server, 'POST', '/v1/clusters', SETUP, {visibility: 'public', name: 'Open'})).body
    const path = `/v1/clusters/${id}/ws?agent=a`
    expect(statuses([await openSocket(server, path, A), await openSocket(server, path, B)])).toEqual([101, 429])
  })
})

describe('registry routes, registrations and the agent socket', () => {
  it('registry routes: per forwarded address with proxy, per socket address without', async () => {
    const behind = await registryServer(true, {perIpPerMinute: 2})
    const onProxy = [A, A, A, B].map((ip) => () => call(behind, 'GET', '/v1/agents', ip))
    const got: number[] = []
    for (const request of onProxy) got.push((await request()).status)
    expect(got).toEqual([200, 200, 429, 200])

    const direct = await registryServer(false, {perIpPerMinute: 2})
    const off: number[] = []
    for (const ip of [A, B, B]) off.push((await call(direct, 'GET', '/v1/agents', ip)).status)
    expect(off).toEqual([200, 200, 429])
  })

  it('registrations: per forwarded address with proxy, per socket address without', async () => {
    const behind = await registryServer(true, {registrationsPerIpPerHour: 1})
    const on = [
      await call(behind, 'POST', '/v1/agents/register', A, {agent_id: 'alpha'}),
      await call(behind, 'POST', '/v1/agents/register', A, {agent_id: 'bravo'}),
      await call(behind, 'POST', '/v1/agents/register', B, {agent_id: 'charlie'}),
    ]
    expect(statuses(on)).toEqual([201, 429, 201])
    expect(on[1].body.error.code).toBe('rate_limited')

    const direct = await registryServer(false, {registrationsPerIpPerHour: 1})
    const off = [await call(direct, 'POST', '/v1/agents/register', A, {agent_id: 'alpha'}), await call(direct, 'POST', '/v1/agents/register', B, {agent_id: 'bravo'})]
    expect(statuses(off)).toEqual([201, 429])
  })

  /** Registers an agent and returns a token for its socket: two requests, made as SETUP. */
  async function token(server: Server) {
    const {api_key} = (await call(server, 'POST', '/v1/agents/register', SETUP, {agent_id: 'alpha'})).body
    return (await call(server, 'POST', '/v1/agents/token', SETUP, {agent_id: 'alpha', api_key})).body.token as string
  }

  it('the agent socket counts against the per-IP route limit of the forwarded address with proxy', async () => {
    const behind = await registryServer(true, {perIpPerMinute: 2})
    const jwt = await token(behind)
    const open = (ip: string) => openSocket(behind, `/v1/agents/ws?token=${jwt}`, ip)
    const results = [await open(A), await open(A), await open(A), await open(B)]
    expect(statuses(results)).toEqual([101, 101, 429, 101])
    expect(results[2]).toMatchObject({code: 'rate_limited', retryAfter: expect.stringMatching(/^[1-9]\d*$/)})
  })
  it('the agent socket counts against the per-IP route limit of the socket address without proxy', async () => {
    // Register and token are requests 1 and 2 of this address; the first socket is the third.
    const direct = await registryServer(false, {perIpPerMinute: 3})
    const jwt = await token(direct)
    const open = (ip: string) => openSocket(direct, `/v1/agents/ws?token=${jwt}`, ip)
    expect(statuses([await open(A), await open(B)])).toEqual([101, 429])
  })
})
