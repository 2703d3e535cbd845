import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'

interface ServerEvent {
  event: string
  data: Record<string, unknown>
}

/** Reads `event:`/`data:` blocks off an open event stream. */
async function openEvents(url: string) {
  const controller = new AbortController()
  const response = await fetch(url, {signal: controller.signal, headers: {accept: 'text/event-stream'}})
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: ServerEvent[] = []
  const waiters: Array<() => void> = []
  let buffer = ''
  void (async () => {
    try {
      for (;;) {
        const {value, done} = await reader.read()
        if (done) return
        buffer += value
        let cut: number
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) events.push({event, data: JSON.parse(data)})
          for (const wake of waiters.splice(0)) wake()
        }
      }
    } catch {
      // aborted
    }
  })()
  /** The first event (from `from` on) matching, waiting for it. */
  const next = async (match: (e: ServerEvent) => boolean, from = 0): Promise<ServerEvent> => {
    for (;;) {
      const found = events.slice(from).find(match)
      if (found) return found
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  return {response, events, next, close: () => controller.abort()}
}

function join(site: SiteServer, clusterId: string, agent: string, vis: string): Promise<WebSocket> {
  const ws = new WebSocket(`${site.url.replace('http', 'ws')}/v1/clusters/${clusterId}/ws?agent=${agent}&vis=${vis}`)
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve(ws))
    ws.once('error', reject)
  })
}

describe('GET /clusters/events', () => {
  let site: SiteServer
  beforeEach(async () => {
    site = await startSiteServer()
  })
  afterEach(async () => {
    await site.close()
  })

  it('streams new public clusters, online count changes and removals; never a private cluster', async () => {
    const existing = await site.createCluster({name: 'already-here', topic: 'old'})
    const stream = await openEvents(`${site.url}/clusters/events`)
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream')
    const ready = await stream.next((e) => e.event === 'ready')
    expect(ready.data).toEqual({count: 1})

    await site.createCluster({visibility: 'private', name: 'secret-room'})
    const created = await site.createCluster({name: 'fresh-room', topic: 'a new topic', description: 'hello', props: {where: {lat: 10, lon: 20, label: 'Here'}}})
    const added = await stream.next((e) => e.event === 'cluster.added')
    expect(added.data).toMatchObject({id: created.cluster_id, name: 'fresh-room', slug: 'fresh-room', topic: 'a new topic', online: 0, where: {lat: 10, lon: 20, label: 'Here'}, href: '/clusters/fresh-room'})
    const point = added.data.point as number[]
    expect(point).toHaveLength(2)
    expect(point.every(Number.isFinite)).toBe(true)

    const sockets = [await join(site, created.cluster_id, 'ann', 'public'), await join(site, created.cluster_id, 'bob', 'private'), await join(site, created.cluster_id, 'casper', 'ghost')]
    const counted = await stream.next((e) => e.event === 'cluster.online' && e.data.online === 2)
    expect(counted.data).toEqual({id: created.cluster_id, online: 2})

    const before = stream.events.length
    const deleted = await fetch(`${site.url}/v1/clusters/${existing.cluster_id}`, {method: 'DELETE', headers: {'x-cluster-token': existing.admin_token}})
    expect(deleted.status).toBe(200)
    const removed = await stream.next((e) => e.event === 'cluster.removed', before)
    expect(removed.data).toEqual({id: existing.cluster_id})

    expect(JSON.stringify(stream.events)).not.toContain('secret-room')
    expect(stream.events.filter((e) => e.event === 'cluster.added')).toHaveLength(1)
    for (const ws of sockets) ws.close()
    stream.close()
  })

  it('a second stream shares the poller and gets ready at once', async () => {
    const first = await openEvents(`${site.url}/clusters/events`)
    await first.next((e) => e.event === 'ready')
    const second = await openEvents(`${site.url}/clusters/events`)
    await second.next((e) => e.event === 'ready')
    await site.createCluster({name: 'seen-by-both'})
    const [a, b] = await Promise.all([first.next((e) => e.event === 'cluster.added'), second.next((e) => e.event === 'cluster.added')])
    expect(a.data.name).toBe('seen-by-both')
    expect(b.data).toEqual(a.data)
    first.close()
    second.close()
  })
})
