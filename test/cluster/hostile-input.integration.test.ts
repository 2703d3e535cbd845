/**
 * Bad input from any client costs that client an error, never the node:
 * every case ends with the relay still serving the other members and new
 * connections (a throw in a socket or upgrade handler would stop the process).
 */
import {connect} from 'node:net'
import WebSocket from 'ws'
import {afterEach, expect, it} from 'vitest'
import {api, Client, createCluster, join, refusal, startRelay, wsUrl, type TestRelay} from './helpers.js'

let relay: TestRelay
const clients: Client[] = []
const member = async (clusterId: string, query: Record<string, string | undefined>) => {
  const client = await join(relay.url, clusterId, query)
  clients.push(client)
  return client
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay?.stop()
})

/** The relay still relays between two members and still admits a new one. */
async function stillServing(clusterId: string, a: Client, b: Client) {
  const marker = `still-${Math.random()}`
  a.send(marker)
  await b.next((f) => f.payload === marker)
  await member(clusterId, {agent: `late-${Math.random()}`})
}

/** Writes raw bytes to the relay and returns what it answered, once it closed the connection. */
function rawRequest(url: string, bytes: string): Promise<string> {
  const {port} = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

it('relays a payload nested deeper than JSON.stringify can go, byte for byte', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  const b = await member(cluster_id, {agent: 'b'})
  const deep = '['.repeat(25_000) + ']'.repeat(25_000)
  const raw: string[] = []
  b.ws.on('message', (data) => raw.push(data.toString()))
  a.send(`{"payload":${deep}}`)
  expect(await a.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: null, delivered: 1})
  await b.next((f) => f.type === 'message')
  expect(raw.at(-1)!.endsWith(`"payload":${deep}}`)).toBe(true)
  await stillServing(cluster_id, a, b)
})

it('keeps numbers and spelling of a payload that a parse and re-serialize would change', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  const b = await member(cluster_id, {agent: 'b'})
  const payload = '{"id": 12345678901234567890, "big": 1e400, "x": 1.50, "stream": "s", "seq": 0, "delta": "\\u00e9"}'
  const raw: string[] = []
  b.ws.on('message', (data) => raw.push(data.toString()))
  a.send(`{"payload": ${payload}}`)
  await b.next((f) => f.type === 'message')
  expect(raw.at(-1)).toMatch(new RegExp(`,"payload":${payload.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}}$`))
})

it('answers every kind of bad frame with invalid_frame and relays none of them', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  const b = await member(cluster_id, {agent: 'b'})
  const bad = ['{"to":5,"payload":"x"}', '{"to":["b"],"payload":"x"}', '{"to":{"h":"b"},"payload":"x"}', '{"to":true,"payload":"x"}', '{"to":"","payload":"x"}', '{"no":"payload"}']
  for (const frame of bad) a.send(frame)
  a.ws.send(Buffer.from([0xff, 0x00]), {binary: true})
  await a.next(() => a.ofType('error').length === bad.length + 1)
  expect(a.ofType('error').every((f) => String(f.detail).startsWith('invalid_frame: '))).toBe(true)
  // JSON that is not an object is text: broadcast as the text itself.
  for (const text of ['null', '42', '[1,2]', 'true']) a.send(text)
  await b.next(() => b.ofType('message').length === 4)
  expect(b.ofType('message').map((f) => f.payload)).toEqual(['null', '42', '[1,2]', 'true'])
  await stillServing(cluster_id, a, b)
})

it('closes a socket that sends text that is not UTF-8 (RFC 6455: 1007) and serves the rest', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  const b = await member(cluster_id, {agent: 'b'})
  const bad = await member(cluster_id, {agent: 'bad'})
  // A masked client text frame whose payload (0xff 0xfe) is not UTF-8; ws would refuse to build it.
  ;(bad.ws as unknown as {_socket: import('node:net').Socket})._socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe]))
  await bad.closed()
  expect(bad.closeCode).toBe(1007)
  expect(await a.next((f) => f.type === 'presence' && f.agent === 'bad' && f.status === 'offline')).toBeTruthy()
  expect(b.ofType('message')).toEqual([])
  await stillServing(cluster_id, a, b)
})

it('counts refused frames toward the message rate, so a flood of oversized frames is cut short', async () => {
  relay = await startRelay({limits: {messagesPerWindow: 3, messageWindowMs: 60_000}})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  for (let i = 0; i < 5; i++) a.send('x'.repeat(64 * 1024 + 1))
  await a.next(() => a.ofType('error').length === 5)
  expect(a.ofType('error').map((f) => String(f.detail).split(':')[0])).toEqual(['frame_too_large', 'frame_too_large', 'frame_too_large', 'rate_limited', 'rate_limited'])
})

it('closes a socket whose frame is far over the limit (1009) without reading it into memory', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  const b = await member(cluster_id, {agent: 'b'})
  const huge = await member(cluster_id, {agent: 'huge'})
  huge.send('z'.repeat(512 * 1024))
  await huge.closed()
  expect(huge.closeCode).toBe(1009)
  expect(b.ofType('message')).toEqual([])
  await stillServing(cluster_id, a, b)
})

it('refuses bad upgrade requests with a status and keeps serving', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await member(cluster_id, {agent: 'a'})
  const b = await member(cluster_id, {agent: 'b'})
  const upgrade = (target: string) =>
    `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`
  // An absolute-form target whose host `new URL` cannot parse.
  expect(await rawRequest(relay.url, upgrade(`http://[/v1/clusters/${cluster_id}/ws?agent=x`))).toMatch(/^HTTP\/1\.1 400 /)
  expect(await rawRequest(relay.url, upgrade(`/v1/clusters/%E0%A4%A/ws?agent=x`))).toMatch(/^HTTP\/1\.1 404 /)
  const cases: Array<[Record<string, string>, number, string]> = [
    [{agent: 'x', vis: 'bogus'}, 400, 'invalid_vis'],
    [{agent: 'x'.repeat(10_000)}, 400, 'invalid_agent'],
    [{agent: 'x', did: 'd'.repeat(1000)}, 400, 'invalid_did'],
    [{agent: ' '}, 400, 'agent_required'],
  ]
  for (const [query, status, code] of cases) {
    const refused = await refusal(relay.url, cluster_id, query)
    expect([refused.status, refused.body.error.code]).toEqual([status, code])
  }
  // A malformed percent escape in the query is read leniently, as URLSearchParams does.
  const odd = new Client(new WebSocket(wsUrl(relay.url, cluster_id, {}).replace(/\?$/, '?agent=%E0%A4%A')))
  clients.push(odd)
  await odd.opened
  expect((await odd.next((f) => f.type === 'ready')).you).toBe('\ufffd%A')
  await stillServing(cluster_id, a, b)
})

it('answers malformed REST input with JSON errors', async () => {
  relay = await startRelay()
  const cases: Array<[string, string, unknown, number, string]> = [
    ['POST', '/v1/clusters', 'not json', 400, 'invalid_json'],
    ['POST', '/v1/clusters', '[1]', 400, 'invalid_body'],
    ['POST', '/v1/clusters', {visibility: 'bogus'}, 400, 'invalid_body'],
    ['POST', '/v1/clusters', {name: 'x', props: {where: '['.repeat(5000)}}, 400, 'invalid_body'],
    ['GET', '/v1/clusters?limit=abc', undefined, 400, 'invalid_query'],
    ['GET', '/v1/clusters?limit=1&limit=2', undefined, 400, 'invalid_query'],
    ['GET', '/v1/clusters?offset=-1', undefined, 400, 'invalid_query'],
    ['GET', '/v1/clusters/%E0%A4%A', undefined, 404, 'cluster_not_found'],
    ['GET', `/v1/clusters/${'a'.repeat(5000)}`, undefined, 404, 'cluster_not_found'],
    ['DELETE', '/v1/clusters/c_AAAAAAAAAAAAAAAAAAAAAAAA', undefined, 404, 'cluster_not_found'],
    ['DELETE', '/v1/clusters/c_AAAAAAAAAAAAAAAAAAAAAAAA?token=a&token=b', undefined, 400, 'invalid_query'],
  ]
  for (const [method, path, body, status, code] of cases) {
    const res = await api(relay.url, method, path, body)
    expect([res.status, res.body?.error?.code], `${method} ${path.slice(0, 40)}`).toEqual([status, code])
  }
})

it('turns a payload that cannot be serialized into a 400 on the server-side broadcast', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  await expect(relay.relay.broadcast(cluster_id, 'bot', cyclic)).rejects.toMatchObject({kind: 'invalid', code: 'invalid_payload'})
  await expect(relay.relay.broadcast(cluster_id, 'bot', 10n)).rejects.toMatchObject({code: 'invalid_payload'})
  const a = await member(cluster_id, {agent: 'a'})
  expect(await relay.relay.broadcast(cluster_id, 'bot', undefined)).toEqual({delivered: 1})
  expect(await a.next((f) => f.type === 'message')).toMatchObject({from: 'bot', payload: null})
})
