/**
 * Requests on the cluster socket's path that are not a well-formed WebSocket
 * opening get mesh's JSON error with a real status — never `ws`'s text/html
 * refusal, never a bare 404 — and cost the relay nothing it keeps: no place
 * in the cluster stays held, no error is logged, other members go on.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {connect} from 'node:net'
import {tmpdir} from 'node:os'
import {join as joinPath} from 'node:path'
import {afterEach, expect, it, vi} from 'vitest'
import {serve} from '../../../src/http/host.js'
import type {Logger} from '../../../src/lib/log.js'
import {silentLogger} from '../../../src/lib/log.js'
import {buildRegistryServer} from '../../../src/registry/compose.js'
import {api, Client, createCluster, join, refusal, startRelay, type TestRelay} from '../helpers.js'

let relay: TestRelay
const errors: string[] = []
const logger: Logger = {...silentLogger, error: (message: string) => void errors.push(message)}
const clients: Client[] = []

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay?.stop()
  expect(errors.splice(0)).toEqual([])
})

const member = async (clusterId: string, agent: string) => {
  const client = await join(relay.url, clusterId, {agent})
  clients.push(client)
  return client
}

interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: {error?: {code?: string; message?: string}}
}

/**
 * Writes `bytes` and reads the answer up to the server's end of it. With
 * `keepOpen` the client never ends its own side (a half-open peer), so
 * anything the relay holds until the socket closes stays held.
 */
function exchange(url: string, bytes: string, keepOpen = false): Promise<RawAnswer & {socket: import('node:net').Socket}> {
  const {port} = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({port: Number(port), host: '127.0.0.1', allowHalfOpen: keepOpen}, () => socket.write(bytes))
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('error', reject)
    socket.once('end', () => {
      const [head, ...rest] = text.split('\r\n\r\n')
      const [statusLine, ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      let body: RawAnswer['body'] = {}
      try {
        body = JSON.parse(rest.join('\r\n\r\n'))
      } catch {
        // left empty: the assertion on the content type shows what came
      }
      resolve({status: Number(statusLine.split(' ')[1]), headers, body, socket})
    })
  })
}

const KEY = 'dGhlIHNhbXBsZSBub25jZQ=='
function opening(path: string, headers: Record<string, string | undefined> = {}, method = 'GET') {
  const all: Record<string, string | undefined> = {Host: 'relay', Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': KEY, 'Sec-WebSocket-Version': '13', ...headers}
  const lines = Object.entries(all).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${v}\r\n`)
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`
}

async function stillServing(clusterId: string) {
  const a = await member(clusterId, `a-${Math.random()}`)
  const b = await member(clusterId, `b-${Math.random()}`)
  a.send('still here')
  expect((await b.next((f) => f.type === 'message')).payload).toBe('still here')
  expect((await api(relay.url, 'GET', '/v1/clusters')).status).toBe(200)
}

it('answers a malformed WebSocket opening with a JSON 400 invalid_handshake, not ws’s text/html', async () => {
  relay = await startRelay({logger})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const path = `/v1/clusters/${cluster_id}/ws?agent=x`
  const cases: Array<[string, Record<string, string | undefined>, RegExp]> = [
    ['wrong Upgrade', {Upgrade: 'h2c'}, /Upgrade/],
    ['short key', {'Sec-WebSocket-Key': 'short'}, /Sec-WebSocket-Key/],
    ['no key', {'Sec-WebSocket-Key': undefined}, /Sec-WebSocket-Key/],
    ['unknown version', {'Sec-WebSocket-Version': '99'}, /Sec-WebSocket-Version/],
    ['no version', {'Sec-WebSocket-Version': undefined}, /Sec-WebSocket-Version/],
    ['empty protocol in the list', {'Sec-WebSocket-Protocol': 'a,,b'}, /Sec-WebSocket-Protocol/],
    ['protocol listed twice', {'Sec-WebSocket-Protocol': 'a, a'}, /Sec-WebSocket-Protocol/],
  ]
  for (const [name, headers, mentions] of cases) {
    const answer = await exchange(relay.url, opening(path, headers))
    expect({status: answer.status, type: answer.headers['content-type'], code: answer.body.error?.code}, name).toEqual({status: 400, type: 'application/json', code: 'invalid_handshake'})
    expect(answer.body.error?.message, name).toMatch(mentions)
  }
  // The version refusal names the versions the relay speaks (RFC 6455 4.4).
  expect((await exchange(relay.url, opening(path, {'Sec-WebSocket-Version': '99'}))).headers['sec-websocket-version']).toBe('13, 8')
  await stillServing(cluster_id)
})

it('refuses an opening that is not a GET with a JSON 405 before looking the cluster up', async () => {
  relay = await startRelay({logger})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  for (const target of [cluster_id, 'c_AAAAAAAAAAAAAAAAAAAAAAAA']) {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await exchange(relay.url, opening(`/v1/clusters/${target}/ws?agent=x`, {'Content-Length': '0'}, method))
      expect({status: answer.status, allow: answer.headers.allow, code: answer.body.error?.code}, `${method} ${target}`).toEqual({status: 405, allow: 'GET', code: 'method_not_allowed'})
    }
  }
  await stillServing(cluster_id)
})

it('answers a plain request on the socket path with 426 upgrade_required (GET) or 405 (other methods)', async () => {
  relay = await startRelay({logger})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const plain = await api(relay.url, 'GET', `/v1/clusters/${cluster_id}/ws?agent=x`)
  expect([plain.status, plain.headers.get('upgrade'), plain.body.error.code]).toEqual([426, 'websocket', 'upgrade_required'])
  expect(plain.body.error.message).toMatch(/WebSocket/)
  for (const method of ['POST', 'DELETE', 'PATCH']) {
    const res = await api(relay.url, method, `/v1/clusters/${cluster_id}/ws`)
    expect([res.status, res.headers.get('allow'), res.body.error.code], method).toEqual([405, 'GET', 'method_not_allowed'])
  }
  await stillServing(cluster_id)
})

it('refuses a query parameter given twice instead of silently taking the first', async () => {
  relay = await startRelay({logger})
  const {cluster_id, token} = await createCluster(relay.url, {visibility: 'public'})
  const path = (query: string) => `/v1/clusters/${cluster_id}/ws?${query}`
  for (const query of ['agent=a&agent=b', 'agent=a&vis=ghost&vis=public', 'agent=a&did=d1&did=d2', `agent=a&token=${token}&token=x`]) {
    const answer = await exchange(relay.url, opening(path(query)))
    expect([answer.status, answer.body.error?.code], query).toEqual([400, 'invalid_query'])
    expect(answer.body.error?.message).toMatch(/more than once/)
  }
  // One value each is still fine, and the owner token still makes the owner.
  const owner = await join(relay.url, cluster_id, {agent: 'o', token})
  clients.push(owner)
  expect((await owner.next((f) => f.type === 'ready')).owner).toBe(true)
  await stillServing(cluster_id)
})

it('gives back the place a refused handshake held at once, even while its peer keeps the connection half-open', async () => {
  relay = await startRelay({logger, limits: {membersPerCluster: 1}})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const refused = await exchange(relay.url, opening(`/v1/clusters/${cluster_id}/ws?agent=x`, {'Sec-WebSocket-Key': 'short'}), true)
  expect(refused.status).toBe(400)
  try {
    // The only place of the cluster is free: the refused socket, still open, does not hold it.
    const only = await member(cluster_id, 'only')
    expect((await only.next((f) => f.type === 'ready')).you).toBe('only')
    expect((await refusal(relay.url, cluster_id, {agent: 'second'})).body.error.code).toBe('cluster_full')
  } finally {
    refused.socket.destroy()
  }
})

it('closes the connection after every refusal, also when the peer never ends its side', async () => {
  relay = await startRelay({logger})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const openings = [
    opening('/v1/clusters/c_AAAAAAAAAAAAAAAAAAAAAAAA/ws?agent=x'),
    opening(`/v1/clusters/${cluster_id}/ws`),
    opening(`/v1/clusters/${cluster_id}/ws?agent=x`, {'Sec-WebSocket-Key': 'short'}),
    opening(`/v1/clusters/${cluster_id}/ws?agent=x`, {'Content-Length': '0'}, 'POST'),
  ]
  const open = () => new Promise<number>((resolve, reject) => relay.server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))))
  // Connections of our own fetch calls may stay alive; the refused ones must not add to them.
  const before = await open()
  const refused = await Promise.all(openings.map((bytes) => exchange(relay.url, bytes, true)))
  expect(refused.map((answer) => answer.status)).toEqual([404, 400, 400, 405])
  try {
    await vi.waitFor(async () => expect(await open()).toBeLessThanOrEqual(before))
  } finally {
    for (const answer of refused) answer.socket.destroy()
  }
})

it('gives the same JSON refusals when the registry serves the relay (mesh serve registry), and /health still answers', async () => {
  const dataDir = await mkdtemp(joinPath(tmpdir(), 'mesh-relay-in-registry-'))
  const built = await buildRegistryServer({dataDir, publicUrl: 'http://registry.example', logger})
  const hosted = await serve({services: built.services, logger, port: 0})
  try {
    const {cluster_id} = await createCluster(hosted.url, {visibility: 'public'})
    const path = `/v1/clusters/${cluster_id}/ws`
    const answers = [
      await exchange(hosted.url, opening(`${path}?agent=x`, {'Sec-WebSocket-Version': '7'})),
      await exchange(hosted.url, opening(`${path}?agent=a%00b`)),
      await exchange(hosted.url, opening(`${path}?agent=x`, {'Content-Length': '0'}, 'POST')),
    ]
    expect(answers.map((a) => [a.status, a.body.error?.code])).toEqual([
      [400, 'invalid_handshake'],
      [400, 'invalid_text'],
      [405, 'method_not_allowed'],
    ])
    expect((await api(hosted.url, 'GET', `${path}?agent=x`)).status).toBe(426)
    expect((await fetch(`${hosted.url}/health`)).status).toBe(200)
  } finally {
    await hosted.stop()
    await built.close()
    await rm(dataDir, {recursive: true, force: true})
  }
})
