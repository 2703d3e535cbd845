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

async function serveHub(hub: EventStreamHub) {
  const app = new Koa()
  app.use((ctx) => {
    hub.open(ctx, (stream) => stream.send('hello', {n: 0}))
  })
  server = createServer(app.callback())
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}

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
})
