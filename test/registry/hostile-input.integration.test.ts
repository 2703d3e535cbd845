/**
 * Hostile input against the whole registry server (`mesh serve registry`
 * built in-process): every bad request gets a 4xx with mesh's JSON error
 * body, never a 500, a stack or a bare status line, and the server keeps
 * answering. Cases already pinned elsewhere (abuse.test.ts, inbox.test.ts,
 * ws.integration.test.ts, mesh-sig/tokens tests) are not repeated.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import net from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {serve, type HostedServer} from '../../src/http/host.js'
import {silentLogger, type Logger} from '../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer} from '../../src/registry/compose.js'
import {dropSchema, PG_URL, uniqueSchema} from '../support/backends.js'

interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

interface Registry {
  url: string
  port: number
  /** Messages the server logged at error level (a client mistake must log none). */
  errors: string[]
  request(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<Answer>
  /** Registers `agentId` and returns its bearer header. */
  agent(agentId: string): Promise<{authorization: string; token: string}>
  close(): Promise<void>
}

async function startRegistry(store: 'sqlite' | 'postgres'): Promise<Registry> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mesh-hostile-'))
  const schema = uniqueSchema('hostile')
  const errors: string[] = []
  const logger: Logger = {...silentLogger, error: (message: string) => void errors.push(message)}
  const server: RegistryServer = await buildRegistryServer({
    dataDir,
    publicUrl: 'https://registry.example',
    logger,
    allowPrivateEndpoints: true,
    ...(store === 'postgres' ? {databaseUrl: PG_URL, databaseSchema: schema} : {}),
  })
  const hosted: HostedServer = await serve({services: server.services, logger, port: 0})
  const request = async (method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(hosted.url + path, {method, body, headers: {'content-type': 'application/json', ...headers}})
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // kept as text: the assertion shows it
    }
    return {status: res.status, headers: Object.fromEntries(res.headers), body: parsed}
  }
  return {
    url: hosted.url,
    port: hosted.port,
    errors,
    request,
    async agent(agentId) {
      const res = await request('POST', '/v1/agents/register', JSON.stringify({agent_id: agentId}))
      if (res.status !== 201) throw new Error(`register ${agentId}: ${res.status} ${JSON.stringify(res.body)}`)
      const token = (res.body as {token: string}).token
      return {authorization: `Bearer ${token}`, token}
    },
    async close() {
      await hosted.stop()
      await server.close()
      if (store === 'postgres') await dropSchema(schema)
      await rm(dataDir, {recursive: true, force: true})
    },
  }
}

/** The refusal shape of the house: 4xx, `{"error": {"code", "message"}}`, no stack or source path. */
function expectRefusal(answer: Answer, status: number, code: string) {
  expect({status: answer.status, code: (answer.body as {error?: {code?: string}})?.error?.code}).toEqual({status, code})
  const message = (answer.body as {error: {message: unknown}}).error.message
  expect(typeof message).toBe('string')
  expect(message).not.toMatch(/\n\s+at |\/src\/|node_modules|RangeError|Maximum call stack/)
}

/** Sends raw bytes and returns everything the server wrote before closing. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes))
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (received += chunk))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
  })
}

/** Splits a raw HTTP/1.1 answer into its status, headers and JSON body. */
function parseRaw(text: string): Answer {
  const [head, ...rest] = text.split('\r\n\r\n')
  const [statusLine, ...headerLines] = head.split('\r\n')
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  const bodyText = rest.join('\r\n\r\n')
  let body: unknown = bodyText
  try {
    body = JSON.parse(bodyText)
  } catch {
    // kept as text: the assertion shows it
  }
  return {status: Number(statusLine.split(' ')[1]), headers, body}
}

/** `[[[…]]]` nested `levels` deep: JSON.parse reads it, JSON.stringify overflows its stack on it. */
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)

for (const store of ['sqlite', 'postgres'] as const) {
  describe(`registry on ${store}: text the store cannot keep`, () => {
    let registry: Registry
    let alpha: {authorization: string}
    beforeAll(async () => {
      registry = await startRegistry(store)
      alpha = await registry.agent('alpha')
    })
    afterAll(() => registry.close())

    it('refuses U+0000 and lone surrogates at registration, before the agent exists', async () => {
      for (const description of ['nul \\u0000 byte', 'lone \\ud800 high', 'lone \\udc00 low']) {
        const res = await registry.request('POST', '/v1/agents/register', `{"agent_id": "ghost", "description": "${description}"}`)
        expectRefusal(res, 400, 'invalid_text')
        expect((res.body as {error: {field: string}}).error.field).toBe('description')
      }
      // Nothing was half-written: the id is still free.
      expect((await registry.request('GET', '/v1/agents/ghost')).status).toBe(404)
      expect((await registry.request('POST', '/v1/agents/register', JSON.stringify({agent_id: 'ghost', description: 'RTL \u202e and emoji 😀 are fine'}))).status).toBe(201)
    })

    it('refuses them in a card push, a card key and a state merge, naming the field', async () => {
      const cases: Array<[string, string, string]> = [
        ['PATCH', '/v1/agents/me', '{"description": "a\\u0000b"}'],
        ['PATCH', '/v1/agents/me', '{"agent_card": {"name": "ok", "tags": ["fine", "x\\udfff"]}}'],
        ['PATCH', '/v1/agents/me', '{"agent_card": {"name": "ok", "extra": {"k\\u0000": 1}}}'],
        ['POST', '/v1/agents/me/state', '{"category": "\\ud83d"}'],
        ['POST', '/v1/agents/me/state', '{"geo": {"city": "\\u0000"}}'],
      ]
      const fields: string[] = []
      for (const [method, path, body] of cases) {
        const res = await registry.request(method, path, body, alpha)
        expectRefusal(res, 400, 'invalid_text')
        fields.push((res.body as {error: {field: string}}).error.field)
      }
      expect(fields).toEqual(['description', 'agent_card.tags[1]', 'agent_card.extra.k\u0000', 'category', 'geo.city'])
      // The stored record is untouched and still readable.
      const record = await registry.request('GET', '/v1/agents/alpha')
      expect([record.status, (record.body as {description: unknown}).description]).toEqual([200, null])
    })

    it('refuses a number JSON text cannot carry (1e309) instead of storing null', async () => {
      const state = await registry.request('POST', '/v1/agents/me/state', '{"rate_limit": 1e309}', alpha)
      expectRefusal(state, 400, 'invalid_number')
      expect((state.body as {error: {field: string}}).error.field).toBe('rate_limit')
      const card = await registry.request('PATCH', '/v1/agents/me', '{"agent_card": {"name": "n", "extra": [-1e400]}}', alpha)
      expectRefusal(card, 400, 'invalid_number')
    })

    it('answers a token request for an id no agent can have as wrong credentials, not 500', async () => {
      for (const agentId of ['a\\u0000b', '\\ud800abc', 'has space']) {
        const res = await registry.request('POST', '/v1/agents/token', `{"agent_id": "${agentId}", "api_key": "k"}`)
        expectRefusal(res, 401, 'invalid_credentials')
      }
      expect(registry.errors).toEqual([])
      expect((await registry.request('GET', '/health')).status).toBe(200)
    })
  })
}

describe('registry on sqlite: bodies, targets and sockets', () => {
  let registry: Registry
  let alpha: {authorization: string; token: string}
  beforeAll(async () => {
    registry = await startRegistry('sqlite')
    alpha = await registry.agent('alpha')
    await registry.agent('beta')
  })
  afterAll(() => registry.close())

  it('refuses a payload nested past 64 levels on every send route, instead of a 500', async () => {
    const deep = deepArray(30_000)
    for (const path of ['/v1/agents/messages', '/agents/messages']) {
      const res = await registry.request('POST', path, `{"to": "beta", "payload": ${deep}}`, alpha)
      expectRefusal(res, 400, 'payload_too_deep')
      expect((res.body as {error: {field: string}}).error.field).toBe('payload')
    }
    const channel = await registry.request('POST', '/v1/agents/channels/c_whatever/send', `{"payload": ${deep}}`, alpha)
    expectRefusal(channel, 400, 'payload_too_deep')
    // 64 levels is still a message.
    const ok = await registry.request('POST', '/v1/agents/messages', `{"to": "beta", "payload": ${deepArray(64)}}`, alpha)
    expect(ok.status).toBe(200)
    expect(registry.errors).toEqual([])
  })

  it('refuses a payload number JSON text would turn into null (1e309)', async () => {
    const res = await registry.request('POST', '/v1/agents/messages', '{"to": "beta", "payload": {"n": [1, -1e309]}}', alpha)
    expectRefusal(res, 400, 'invalid_number')
    expect((res.body as {error: {field: string}}).error.field).toBe('payload.n[1]')
    // Text a store could not keep as such is fine in a payload: it travels as escaped JSON.
    const text = await registry.request('POST', '/v1/agents/messages', '{"to": "beta", "payload": "\\u0000 \\ud800"}', alpha)
    expect(text.status).toBe(200)
  })

  it('reads the inbox limit as digits only', async () => {
    for (const limit of ['0x10', '1e2', '%205', '5.0']) {
      expectRefusal(await registry.request('GET', `/v1/agents/messages?limit=${limit}`, undefined, alpha), 400, 'invalid_limit')
    }
    expect((await registry.request('GET', '/v1/agents/messages?limit=5', undefined, alpha)).status).toBe(200)
  })

  it('answers a request target URL parsing refuses with a JSON 400, and keeps serving', async () => {
    const answer = parseRaw(await rawExchange(registry.port, 'GET http://[/v1/agents HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    expectRefusal(answer, 400, 'bad_request')
    expect(registry.errors).toEqual([])
    expect((await registry.request('GET', '/health')).status).toBe(200)
  })

  it('answers what Node’s HTTP parser refuses with the JSON error body, not a bare status line', async () => {
    const badLength = parseRaw(await rawExchange(registry.port, 'POST /v1/agents/token HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}'))
    expectRefusal(badLength, 400, 'bad_request')
    const hugeHeaders = parseRaw(await rawExchange(registry.port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))
    expectRefusal(hugeHeaders, 431, 'headers_too_large')
    const badLine = parseRaw(await rawExchange(registry.port, 'GARBAGE\r\n\r\n'))
    expectRefusal(badLine, 400, 'bad_request')
    expect((await registry.request('GET', '/health')).status).toBe(200)
  })

  it('answers a method the router does not know, and CONNECT, with a JSON 405 instead of a bare 501 or silence', async () => {
    for (const method of ['PROPFIND', 'PURGE', 'LINK']) {
      const answer = parseRaw(await rawExchange(registry.port, `${method} /v1/agents/alpha HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
      expectRefusal(answer, 405, 'method_not_allowed')
      expect(answer.headers.allow).toBe('HEAD, GET')
    }
    const connect = parseRaw(await rawExchange(registry.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'))
    expectRefusal(connect, 405, 'method_not_allowed')
    expect((await registry.request('GET', '/health')).status).toBe(200)
  })

  it('refuses a malformed WebSocket handshake with JSON, and a plain GET on the socket path with 426', async () => {
    const upgrade = (method: string, extra: string) =>
      `${method} /v1/agents/ws?token=${alpha.token} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n${extra}\r\n`
    const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
    const cases: Array<[string, string]> = [
      ['GET', `Upgrade: not-websocket\r\nSec-WebSocket-Version: 13\r\n${key}`],
      ['GET', 'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n'],
      ['GET', `Upgrade: websocket\r\nSec-WebSocket-Version: 99\r\n${key}`],
      ['GET', `Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n${key}Sec-WebSocket-Protocol: a,,b\r\n`],
    ]
    for (const [method, extra] of cases) {
      expectRefusal(parseRaw(await rawExchange(registry.port, upgrade(method, extra))), 400, 'invalid_handshake')
    }
    const version = parseRaw(await rawExchange(registry.port, upgrade('GET', `Upgrade: websocket\r\nSec-WebSocket-Version: 99\r\n${key}`)))
    expect(version.headers['sec-websocket-version']).toBe('13, 8')
    const post = parseRaw(await rawExchange(registry.port, upgrade('POST', `Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n${key}`)))
    expectRefusal(post, 405, 'method_not_allowed')
    const plain = await registry.request('GET', `/v1/agents/ws?token=${alpha.token}`)
    expectRefusal(plain, 426, 'upgrade_required')
    expect(plain.headers.upgrade).toBe('websocket')
  })

  it('reads the socket’s Authorization scheme case-insensitively, like the HTTP routes', async () => {
    const ws = new WebSocket(`${registry.url.replace('http', 'ws')}/v1/agents/ws`, {headers: {authorization: `bearer ${alpha.token}`}})
    try {
      const data = await new Promise<WebSocket.RawData>((resolve, reject) => {
        ws.once('message', (message) => resolve(message))
        ws.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)))
      })
      expect(JSON.parse(String(data))).toMatchObject({type: 'welcome', agent_id: 'alpha'})
    } finally {
      ws.terminate()
    }
  })

  it('answers a too-deep payload on the socket with an error frame, and the socket keeps working', async () => {
    const ws = new WebSocket(`${registry.url.replace('http', 'ws')}/v1/agents/ws?token=${alpha.token}`)
    const frames: Array<Record<string, unknown>> = []
    const waiters: Array<() => void> = []
    ws.on('message', (data) => {
      frames.push(JSON.parse(String(data)))
      waiters.shift()?.()
    })
    const next = async () => {
      if (frames.length === 0) await new Promise<void>((resolve) => waiters.push(resolve))
      return frames.shift()!
    }
    try {
      expect((await next()).type).toBe('welcome')
      ws.send(`{"msg_type": "message", "to": "beta", "payload": ${deepArray(30_000)}, "ref": "deep"}`)
      const refused = await next()
      expect(refused).toEqual({type: 'error', code: 'payload_too_deep', message: 'payload nests deeper than 64 levels', ref: 'deep'})
      ws.send('{"msg_type": "ping", "ref": "after"}')
      expect(await next()).toEqual({type: 'pong', ref: 'after'})
    } finally {
      ws.terminate()
    }
    expect(registry.errors).toEqual([])
  })
})
