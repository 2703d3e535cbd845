import {afterEach, describe, expect, it} from 'vitest'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'
import {openEvents, type SseReader} from './network-sse.js'

let server: SiteServer | undefined
let streams: SseReader[] = []

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close()
  await server?.close()
  server = undefined
})

async function tokenCall(site: SiteServer, agentId: string, apiKey: string) {
  const response = await fetch(`${site.url}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: agentId, api_key: apiKey})})
  if (!response.ok) throw new Error(`token ${agentId}: ${response.status}`)
}

const agentEvents = (reader: SseReader) => reader.events.filter((event) => event.event === 'agent').map((event) => event.data as Record<string, unknown>)

describe('GET /network/events', () => {
  it('sends every change of an agent in order: registered, card, online, offline after the sweep', async () => {
    server = await startSiteServer()
    const reader = await openEvents(`${server.url}/network/events`)
    streams.push(reader)
    const {api_key, token} = await server.register('painter-1')
    await reader.waitFor((events) => events.length >= 1)
    await server.pushCard(token, {name: 'Painter', brand: 'acme', category: 'media.image'})
    await reader.waitFor((events) => events.length >= 2)
    await tokenCall(server, 'painter-1', api_key)
    await reader.waitFor((events) => events.length >= 3)
    server.advance(5 * 60_000 + 1)
    expect(await server.server.registry.sweep()).toEqual(['painter-1'])
    await reader.waitFor((events) => events.length >= 4)
    const seen = agentEvents(reader)
    expect(reader.events.every((event) => event.event === 'agent')).toBe(true)
    const lastSeen = new Date(server.now() - 5 * 60_000 - 1).toISOString()
    expect(seen).toEqual([
      {id: 'painter-1', name: 'painter-1', brand: null, category: null, online: false, last_seen: null, operational: null},
      {id: 'painter-1', name: 'Painter', brand: 'acme', category: 'media.image', online: false, last_seen: null, operational: null},
      {id: 'painter-1', name: 'Painter', brand: 'acme', category: 'media.image', online: true, last_seen: lastSeen, operational: null},
      {id: 'painter-1', name: 'Painter', brand: 'acme', category: 'media.image', online: false, last_seen: lastSeen, operational: null},
    ])
  })

  it('fans one registry event out to every open stream, and ends the streams when the server closes', async () => {
    server = await startSiteServer()
    const readers = await Promise.all([1, 2, 3].map(() => openEvents(`${server!.url}/network/events`)))
    streams.push(...readers)
    await server.register('writer-1')
    for (const reader of readers) await reader.waitFor((events) => events.length >= 1)
    for (const reader of readers) expect(agentEvents(reader)).toMatchObject([{id: 'writer-1', online: false}])
    const closing = server.close()
    server = undefined
    await Promise.all(readers.map((reader) => reader.ended))
    await closing
  })
})
