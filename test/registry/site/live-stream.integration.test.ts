/**
 * `GET /site/events`, the site's one stream per browser: every live area's
 * events on one connection, each marked with its topic; the catalog's
 * greeting; refused whole when any area's cap is reached.
 */
import {afterEach, describe, expect, it} from 'vitest'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'
import {openEvents, type SseEvent, type SseReader} from './network-sse.js'

let site: SiteServer | undefined
const readers: SseReader[] = []

afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close()
  await site?.close()
  site = undefined
})

async function open(path: string) {
  const reader = await openEvents(site!.url + path)
  readers.push(reader)
  return reader
}

type Message = {topic: string; event: string; data: Record<string, unknown>; greeting?: boolean}
const messages = (events: SseEvent[]) => events.map((e) => e.data as Message)

describe('GET /site/events', () => {
  it('carries the network and the clusters topics on one stream, the catalog\'s ready as a greeting', async () => {
    site = await startSiteServer()
    const stream = await open('/site/events')
    const [ready] = messages(await stream.waitFor((events) => events.length > 0))
    expect(ready).toEqual({topic: 'clusters', event: 'ready', data: {count: 0}, greeting: true})
    expect(stream.events.every((e) => e.event === 'message')).toBe(true)

    const {token} = await site.register('live-one')
    await site.pushCard(token, {name: 'Live One', brand: 'acme', category: 'media.image'})
    await site.createCluster({name: 'Harbour Watch'})
    const all = messages(
      await stream.waitFor((events) => messages(events).some((m) => m.event === 'cluster.added') && messages(events).some((m) => m.event === 'agent' && m.data.name === 'Live One')),
    )
    const agent = all.find((m) => m.event === 'agent' && m.data.name === 'Live One')!
    expect(agent.topic).toBe('network')
    expect(agent.greeting).toBeUndefined()
    expect(agent.data).toMatchObject({id: 'live-one', brand: 'acme', category: 'media.image'})
    const added = all.find((m) => m.event === 'cluster.added')!
    expect(added).toMatchObject({topic: 'clusters', data: {name: 'Harbour Watch'}})
    expect(added.greeting).toBeUndefined()
  })

  it('is refused whole (503 too_many_streams) while an area is at its cap, and only takes GET', async () => {
    site = await startSiteServer({pages: {catalogPollMs: 100, maxStreams: 1}})
    await open('/network/events')
    const refused = await fetch(`${site.url}/site/events`)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('3')
    expect(((await refused.json()) as {error: {code: string}}).error.code).toBe('too_many_streams')
    const posted = await fetch(`${site.url}/site/events`, {method: 'POST'})
    expect(posted.status).toBe(405)
    expect(((await posted.json()) as {error: {code: string}}).error.code).toBe('method_not_allowed')
  })

  it('counts against the per-IP limit like the areas\' own streams (a reconnect loop is limited too)', async () => {
    site = await startSiteServer({limits: {perIpPerMinute: 1}})
    ;(await open('/site/events')).close()
    const limited = await fetch(`${site.url}/site/events`)
    expect(limited.status).toBe(429)
  })
})
