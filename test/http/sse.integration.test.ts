import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import Koa from 'koa'
import {afterEach, describe, expect, it} from 'vitest'
import {createEventStreamHub, type EventStreamHub} from '../../src/http/sse.js'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

async function serve(handle: (ctx: Koa.Context) => void) {
  const app = new Koa()
  app.use(handle)
  server = createServer(app.callback())
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

const serveHub = (hub: EventStreamHub) => serve((ctx) => void hub.open(ctx, (stream) => stream.send('hello', {n: 0})))

/** Reads the stream until `count` blank-line-terminated blocks arrived. */
async function readBlocks(response: Response, count: number): Promise<string[]> {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (text.split('\n\n').length - 1 < count) {
    const {value, done} = await reader.read()
    if (done) break
    text += decoder.decode(value)
  }
  await reader.cancel()
  return text.split('\n\n').slice(0, count)
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  return check()
}

describe('event stream hub', () => {
  it('sends the retry delay, the opening event and every broadcast as SSE', async () => {
    const hub = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 3000})
    const url = await serveHub(hub)
    const response = await fetch(url)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform')
    expect(await until(() => hub.size === 1)).toBe(true)
    hub.broadcast('agent', {id: 'a', text: 'line\nbreak'})
    expect(await readBlocks(response, 3)).toEqual(['retry: 3000', 'event: hello\ndata: {"n":0}', 'event: agent\ndata: {"id":"a","text":"line\\nbreak"}'])
    expect(await until(() => hub.size === 0)).toBe(true)
  })
  it('refuses streams beyond the cap with 503 too_many_streams and Retry-After', async () => {
    const hub = createEventStreamHub({max: 1, keepaliveMs: 60_000, retryMs: 2000})
    const url = await serveHub(hub)
    const first = await fetch(url)
    const second = await fetch(url)
    expect(second.status).toBe(503)
    expect(second.headers.get('retry-after')).toBe('2')
    expect(((await second.json()) as {error: {code: string}}).error.code).toBe('too_many_streams')
    await first.body!.cancel()
  })
  it('ends every stream on closeAll', async () => {
    const hub = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 1000})
    const url = await serveHub(hub)
    const response = await fetch(url)
    expect(await until(() => hub.size === 1)).toBe(true)
    hub.closeAll()
    expect(hub.size).toBe(0)
    expect(await response.text()).toContain('event: hello')
  })
  it('keeps idle streams open with comment lines', async () => {
    const hub = createEventStreamHub({max: 5, keepaliveMs: 20, retryMs: 1000})
    const url = await serveHub(hub)
    const blocks = await readBlocks(await fetch(url), 3)
    expect(blocks[2]).toBe(': keepalive')
  })

  it('joins a stream to other hubs: their events and greetings travel on it with their topic, it leaves them when it closes', async () => {
    const own = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 1000})
    const network = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 1000, topic: 'network'})
    const clusters = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 1000, topic: 'clusters'})
    const url = await serve((ctx) => {
      const stream = own.open(ctx)!
      network.join(stream)
      clusters.join(stream, (joined) => joined.send('ready', {count: 2}))
    })
    const response = await fetch(url)
    expect(await until(() => network.size === 1 && clusters.size === 1)).toBe(true)
    network.broadcast('agent', {id: 'a'})
    clusters.broadcast('cluster.online', {id: 'c', online: 1})
    expect(await readBlocks(response, 4)).toEqual([
      'retry: 1000',
      'data: {"topic":"clusters","event":"ready","data":{"count":2},"greeting":true}',
      'data: {"topic":"network","event":"agent","data":{"id":"a"}}',
      'data: {"topic":"clusters","event":"cluster.online","data":{"id":"c","online":1}}',
    ])
    expect(await until(() => own.size === 0 && network.size === 0 && clusters.size === 0)).toBe(true)
  })
  it('counts joined streams towards a hub\'s cap, and refuses to join a hub without a topic', async () => {
    const own = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 1000})
    const network = createEventStreamHub({max: 1, keepaliveMs: 60_000, retryMs: 1000, topic: 'network'})
    const plain = createEventStreamHub({max: 5, keepaliveMs: 60_000, retryMs: 1000})
    let refused: unknown
    const url = await serve((ctx) => {
      const stream = own.open(ctx)!
      network.join(stream)
      try {
        plain.join(stream)
      } catch (error) {
        refused = error
      }
    })
    const response = await fetch(url)
    expect(await until(() => network.full)).toBe(true)
    expect(refused).toBeInstanceOf(TypeError)
    expect(plain.size).toBe(0)
    // Closing the hub it joined ends the stream itself (server shutdown).
    network.closeAll()
    expect(own.size).toBe(0)
    expect(network.full).toBe(false)
    expect(await response.text()).toBe('retry: 1000\n\n')
  })
})
