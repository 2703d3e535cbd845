import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {safeFetch, vetEndpoint, type Resolver} from '../../src/http/safe-fetch.js'
import {MeshError} from '../../src/lib/errors.js'

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void

interface TestServer {
  url: string
  port: number
  hits: Array<{method: string; path: string; headers: IncomingMessage['headers']; body: string}>
  server: Server
}

async function start(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const hits: TestServer['hits'] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      hits.push({method: req.method!, path: req.url!, headers: req.headers, body})
      handler(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as AddressInfo).port
  return {url: `http://${host}:${port}`, port, hits, server}
}

const stop = (s: TestServer) => new Promise<void>((resolve) => {
  s.server.closeAllConnections()
  s.server.close(() => resolve())
})

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(MeshError)
    return (error as MeshError).code
  }
  throw new Error('expected the fetch to fail')
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, {'content-type': 'application/json', ...headers})
  res.end(JSON.stringify(value))
}

describe('safeFetch', () => {
  let target: TestServer // 127.0.0.1: the "internal" service an attacker wants to reach
  let gateway: TestServer // 127.0.0.2: stands in for a public host via allowAddresses
  const publicish = {allowAddresses: ['127.0.0.2']}

  beforeAll(async () => {
    target = await start((req, res, body) => {
      if (req.url === '/big') {
        res.writeHead(200, {'content-type': 'text/plain'})
        res.end('x'.repeat(5000))
      } else if (req.url === '/big-chunked') {
        res.writeHead(200, {'content-type': 'text/plain'})
        for (let i = 0; i < 10; i++) res.write('y'.repeat(1000))
        res.end()
      } else if (req.url === '/hang') {
        // never answers
      } else if (req.url === '/drip') {
        res.writeHead(200, {'content-type': 'text/plain'})
        res.write('partial')
      } else if (req.url?.startsWith('/hop/')) {
        const n = Number(req.url.slice(5))
        if (n === 0) json(res, 200, {arrived: true, method: req.method, body})
        else res.writeHead(302, {location: `/hop/${n - 1}`}).end()
      } else if (req.url === '/see-other') {
        res.writeHead(303, {location: '/echo'}).end()
      } else if (req.url === '/keep') {
        res.writeHead(307, {location: '/echo'}).end()
      } else if (req.url === '/text') {
        res.writeHead(200, {'content-type': 'text/plain'}).end('plain words')
      } else {
        json(res, 200, {method: req.method, path: req.url, body, auth: req.headers.authorization ?? null, type: req.headers['content-type'] ?? null})
      }
    })
    gateway = await start((req, res) => {
      const to = decodeURIComponent(req.url!.slice('/to?'.length))
      if (req.url!.startsWith('/to?')) res.writeHead(302, {location: to}).end()
      else json(res, 200, {gateway: true, auth: req.headers.authorization ?? null})
    }, '127.0.0.2')
  })
  afterAll(async () => {
    await stop(target)
    await stop(gateway)
  })

  it('refuses a loopback endpoint without allowPrivate and never connects', async () => {
    const before = target.hits.length
    expect(await codeOf(safeFetch(`${target.url}/echo`))).toBe('endpoint_forbidden')
    expect(await codeOf(safeFetch(`http://localhost:${target.port}/echo`))).toBe('endpoint_forbidden')
    expect(await codeOf(safeFetch(`http://[::ffff:127.0.0.1]:${target.port}/echo`))).toBe('endpoint_forbidden')
    expect(await codeOf(safeFetch(`http://2130706433:${target.port}/echo`))).toBe('endpoint_forbidden')
    expect(target.hits.length).toBe(before)
  })

  it('names the address and the flag in the refusal', async () => {
    await expect(safeFetch(`http://localhost:${target.port}/`)).rejects.toThrow(/127\.0\.0\.1.*loopback.*--allow-private-endpoints/)
  })

  it('fetches from a private endpoint with allowPrivate and parses JSON', async () => {
    const response = await safeFetch(`${target.url}/echo?q=1`, {allowPrivate: true})
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('application/json')
    expect(response.json).toMatchObject({method: 'GET', path: '/echo?q=1'})
    expect(response.address).toBe('127.0.0.1')
  })

  it('sends a JSON body with POST', async () => {
    const response = await safeFetch(`${target.url}/echo`, {allowPrivate: true, json: {a: 1}})
    expect(response.json).toMatchObject({method: 'POST', body: '{"a":1}', type: 'application/json'})
  })

  it('leaves json undefined for a non-JSON body', async () => {
    const response = await safeFetch(`${target.url}/text`, {allowPrivate: true})
    expect(response.bodyText).toBe('plain words')
    expect(response.json).toBeUndefined()
  })

  it('refuses other schemes and malformed URLs', async () => {
    expect(await codeOf(safeFetch('file:///etc/passwd', {allowPrivate: true}))).toBe('endpoint_forbidden')
    expect(await codeOf(safeFetch('ftp://example.com/', {allowPrivate: true}))).toBe('endpoint_forbidden')
    expect(await codeOf(safeFetch('not a url', {allowPrivate: true}))).toBe('endpoint_forbidden')
  })

  it('follows up to three redirects and refuses a fourth', async () => {
    const ok = await safeFetch(`${target.url}/hop/3`, {allowPrivate: true})
    expect(ok.json).toMatchObject({arrived: true})
    expect(ok.url).toBe(`${target.url}/hop/0`)
    expect(await codeOf(safeFetch(`${target.url}/hop/4`, {allowPrivate: true}))).toBe('fetch_failed')
  })

  it('returns the 3xx itself with maxRedirects 0', async () => {
    const response = await safeFetch(`${target.url}/hop/1`, {allowPrivate: true, maxRedirects: 0})
    expect(response.status).toBe(302)
    expect(response.headers.location).toBe('/hop/0')
  })

  it('turns POST into GET on 303 and keeps it on 307', async () => {
    const seeOther = await safeFetch(`${target.url}/see-other`, {allowPrivate: true, json: {a: 1}})
    expect(seeOther.json).toMatchObject({method: 'GET', body: '', type: null})
    const keep = await safeFetch(`${target.url}/keep`, {allowPrivate: true, json: {a: 1}})
    expect(keep.json).toMatchObject({method: 'POST', body: '{"a":1}'})
  })

  it('refuses a redirect from an allowed host to loopback, and never reaches the target', async () => {
    const before = target.hits.length
    const ok = await safeFetch(`${gateway.url}/plain`, publicish)
    expect(ok.json).toMatchObject({gateway: true})
    const to = encodeURIComponent(`${target.url}/echo`)
    expect(await codeOf(safeFetch(`${gateway.url}/to?${to}`, publicish))).toBe('endpoint_forbidden')
    const toName = encodeURIComponent(`http://localhost:${target.port}/echo`)
    expect(await codeOf(safeFetch(`${gateway.url}/to?${toName}`, publicish))).toBe('endpoint_forbidden')
    expect(target.hits.length).toBe(before)
  })

  it('drops credentials on a cross-origin redirect', async () => {
    const to = encodeURIComponent(`${target.url}/echo`)
    const response = await safeFetch(`${gateway.url}/to?${to}`, {allowPrivate: true, headers: {Authorization: 'Bearer secret'}})
    expect(response.json).toMatchObject({auth: null})
    const same = await safeFetch(`${target.url}/keep`, {allowPrivate: true, headers: {Authorization: 'Bearer secret'}})
    expect(same.json).toMatchObject({auth: 'Bearer secret'})
  })

  it('dials the address it vetted, never a second DNS answer', async () => {
    const answers = ['127.0.0.2', '127.0.0.1']
    let calls = 0
    const resolve: Resolver = async () => [{address: answers[Math.min(calls++, 1)], family: 4}]
    // rebind.invalid resolves nowhere in real DNS: only the pinned address can have been dialled.
    const response = await safeFetch(`http://rebind.invalid:${gateway.port}/plain`, {...publicish, resolve})
    expect(response.json).toMatchObject({gateway: true})
    expect(response.address).toBe('127.0.0.2')
    expect(calls).toBe(1)
  })

  it('refuses a host whose answers mix public and private addresses', async () => {
    const resolve: Resolver = async () => [{address: '8.8.8.8', family: 4}, {address: '10.0.0.1', family: 4}]
    expect(await codeOf(vetEndpoint('http://mixed.invalid/', {resolve}))).toBe('endpoint_forbidden')
    const single: Resolver = async () => [{address: '8.8.8.8', family: 4}]
    expect(await vetEndpoint('http://ok.invalid/', {resolve: single})).toEqual({address: '8.8.8.8', family: 4})
  })

  it('aborts a response over the size cap, declared or streamed', async () => {
    expect(await codeOf(safeFetch(`${target.url}/big`, {allowPrivate: true, maxBytes: 1024}))).toBe('too_large')
    expect(await codeOf(safeFetch(`${target.url}/big-chunked`, {allowPrivate: true, maxBytes: 4096}))).toBe('too_large')
    const fits = await safeFetch(`${target.url}/big-chunked`, {allowPrivate: true, maxBytes: 10_000})
    expect(fits.bodyText.length).toBe(10_000)
  })

  it('times out on a server that never answers or never finishes', async () => {
    expect(await codeOf(safeFetch(`${target.url}/hang`, {allowPrivate: true, timeoutMs: 150}))).toBe('timeout')
    expect(await codeOf(safeFetch(`${target.url}/drip`, {allowPrivate: true, timeoutMs: 150}))).toBe('timeout')
  })

  it('times out on a resolver that never answers', async () => {
    const resolve: Resolver = () => new Promise(() => {})
    expect(await codeOf(safeFetch('http://slow.invalid/', {resolve, timeoutMs: 100}))).toBe('timeout')
  })

  it('reports unreachable and unresolvable hosts as fetch_failed', async () => {
    const closed = await start(() => {})
    await stop(closed)
    expect(await codeOf(safeFetch(`${closed.url}/`, {allowPrivate: true}))).toBe('fetch_failed')
    const resolve: Resolver = async () => {
      throw new Error('ENOTFOUND')
    }
    expect(await codeOf(safeFetch('http://nowhere.invalid/', {resolve}))).toBe('fetch_failed')
  })

  it('stops when the caller aborts', async () => {
    const controller = new AbortController()
    const pending = safeFetch(`${target.url}/hang`, {allowPrivate: true, signal: controller.signal})
    controller.abort()
    expect(await codeOf(pending)).toBe('fetch_failed')
  })
})
