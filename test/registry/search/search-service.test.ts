import {describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {silentLogger} from '../../../src/lib/log.js'
import {PROBE_EVENTS_SUBJECT} from '../../../src/registry/probe/constants.js'
import {parseSearchRequest} from '../../../src/registry/search/request.js'
import {createSearchService} from '../../../src/registry/search/search-service.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {agentRecord, busEvents, NOW, probe, putAgent} from './fixtures.js'

async function setup() {
  let now = NOW
  const clock = () => now
  const store = createMemoryRegistryStore()
  const bus = createLocalBus()
  const events = busEvents(bus, clock)
  await putAgent(store, agentRecord('painter', {name: 'Painter', description: 'Generates images from text', tags: ['image']}))
  await putAgent(store, agentRecord('weather', {name: 'Weather', description: 'Forecasts', tags: ['weather']}))
  await putAgent(store, agentRecord('sleepy', {name: 'Sleepy painter', description: 'Generates images', tags: ['image']}, {lastSeenMs: NOW - 10 * 60_000}))
  const service = createSearchService({store, events, bus, clock, logger: silentLogger, resyncMs: 0})
  const search = async (prompt: string, extra: Record<string, unknown> = {}) => (await service.search(parseSearchRequest({prompt, ...extra}))).results.map((r) => r.agent_id)
  // Lets queued event handlers (async store reads) finish.
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  return {store, bus, events, service, search, settle, advance: (ms: number) => (now += ms), clock}
}

describe('search service', () => {
  it('loads every agent from the store on first use, live ones searchable', async () => {
    const {service, search} = await setup()
    expect(await search('images')).toEqual(['painter'])
    expect(service.index.size).toBe(3)
  })

  it('answers with the result shape of DECISIONS', async () => {
    const {service} = await setup()
    const response = await service.search(parseSearchRequest({prompt: 'images', filters: {nope: 1}}))
    expect(response).toMatchObject({count: 1, ignored_keys: ['filters.nope']})
    expect(typeof response.took_ms).toBe('number')
    expect(response.results[0]).toEqual({
      agent_id: 'painter', display_name: 'Painter', did: null, verified: false, endpoint: 'https://painter.example.com',
      online: true, operational: null, card_match: null, live_check: null, score: expect.any(Number), invoke: [],
      description: 'Generates images from text', category: null, tags: ['image'],
    })
  })

  it('follows card pushes and registrations from bus events', async () => {
    const {store, events, search, settle} = await setup()
    await search('x') // loads
    await store.updateAgent('weather', {agentCard: {name: 'Weather', description: 'Forecasts and satellite images', tags: ['weather']}})
    events.publish('agent.card', 'weather')
    await putAgent(store, agentRecord('newcomer', {name: 'Newcomer', description: 'Generates images too'}))
    events.publish('agent.registered', 'newcomer')
    await settle()
    expect((await search('images')).sort()).toEqual(['newcomer', 'painter', 'weather'])
  })

  it('drops an agent on agent.offline and brings it back on agent.online', async () => {
    const {store, events, search, settle, advance, clock} = await setup()
    await search('x')
    advance(5 * 60_000) // painter's heartbeat is now stale; the sweep says so
    events.publish('agent.offline', 'painter')
    expect(await search('images')).toEqual([])
    await store.touchAgent('sleepy', clock())
    events.publish('agent.online', 'sleepy')
    await settle()
    expect(await search('images')).toEqual(['sleepy'])
  })

  it('trusts the store over a stray offline event', async () => {
    const {events, search, settle} = await setup()
    await search('x')
    events.publish('agent.offline', 'painter') // painter's heartbeat is 1 s old
    await settle()
    expect(await search('images')).toEqual(['painter'])
  })

  it('re-checks liveness at query time when no offline event came', async () => {
    const {search, advance} = await setup()
    expect(await search('images')).toEqual(['painter'])
    advance(5 * 60_000) // painter's last heartbeat is now 5 min + 1 s old; the bus said nothing
    expect(await search('images')).toEqual([])
  })

  it('picks up probe results announced on the probe subject', async () => {
    const {store, bus, search, settle} = await setup()
    expect(await search('images', {operational_only: true})).toEqual([])
    await store.saveProbe('painter', probe({operational: true, skills: [{id: 'draw', url: 'https://painter.example.com/v1/draw', answering: true}]}))
    bus.publish(PROBE_EVENTS_SUBJECT, Buffer.from(JSON.stringify({agent_id: 'painter', at: new Date(NOW).toISOString()})))
    await settle()
    expect(await search('images', {operational_only: true})).toEqual(['painter'])
  })

  it('catches up on events that arrived while it was loading', async () => {
    const {store, events, service, search} = await setup()
    const loading = service.start()
    await putAgent(store, agentRecord('late', {description: 'Generates images late'}))
    events.publish('agent.registered', 'late')
    await loading
    expect((await search('images')).sort()).toEqual(['late', 'painter'])
  })

  it('stops listening once closed', async () => {
    const {store, events, service, search, settle} = await setup()
    await search('x')
    await service.close()
    await putAgent(store, agentRecord('after-close', {description: 'Generates images'}))
    events.publish('agent.registered', 'after-close')
    await settle()
    expect(service.index.get('after-close')).toBeUndefined()
  })
})
