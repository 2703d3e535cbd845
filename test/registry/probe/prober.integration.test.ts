import {afterEach, describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {safeFetch} from '../../../src/http/safe-fetch.js'
import {silentLogger} from '../../../src/lib/log.js'
import {PROBE_EVENTS_SUBJECT} from '../../../src/registry/probe/constants.js'
import {createProbePart} from '../../../src/registry/probe/part.js'
import type {ProbeFetch} from '../../../src/registry/probe/probe-agent.js'
import {createProber, type Prober} from '../../../src/registry/probe/prober.js'
import {createSearchPart} from '../../../src/registry/search/part.js'
import {parseSearchRequest} from '../../../src/registry/search/request.js'
import {createMemoryRegistryStore, type RegistryStore} from '../../../src/registry/store/store.js'
import {startTestAgent, type TestAgent, type TestAgentOptions} from '../../support/test-agent.js'
import {agentRecord, busEvents, putAgent, testContext} from '../search/fixtures.js'

const fetchPrivate: ProbeFetch = (url, init) => safeFetch(url, {...init, allowPrivate: true, timeoutMs: 1_000})

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function agent(options: TestAgentOptions = {skills: [{id: 'draw'}]}): Promise<TestAgent> {
  const started = await startTestAgent(options)
  cleanups.push(() => started.close())
  return started
}

function setup(extra: {fetch?: ProbeFetch; concurrency?: number} = {}) {
  let now = Date.parse('2026-06-20T12:00:00Z')
  const clock = () => now
  const store = createMemoryRegistryStore()
  const bus = createLocalBus()
  const events = busEvents(bus, clock)
  const announced: string[] = []
  bus.subscribe(PROBE_EVENTS_SUBJECT, (data) => announced.push((JSON.parse(Buffer.from(data).toString()) as {agent_id: string}).agent_id))
  const prober = createProber({store, bus, events, clock, logger: silentLogger, fetch: extra.fetch ?? fetchPrivate, jitterMs: 0, firstPassDelayMs: 0, concurrency: extra.concurrency})
  cleanups.push(() => prober.close())
  const register = async (agentId: string, endpoint: string | null, overrides: Parameters<typeof agentRecord>[2] = {}) =>
    putAgent(store, agentRecord(agentId, {name: agentId, availability: {now: true}}, {endpoint, lastSeenMs: now - 1_000, ...overrides}))
  return {store, bus, events, prober, announced, register, clock, advance: (ms: number) => (now += ms)}
}

/** Resolves once the prober has announced `count` more probe results. */
function announcements(bus: ReturnType<typeof createLocalBus>, count: number): Promise<string[]> {
  const seen: string[] = []
  return new Promise((resolve) => {
    const stop = bus.subscribe(PROBE_EVENTS_SUBJECT, (data) => {
      seen.push((JSON.parse(Buffer.from(data).toString()) as {agent_id: string}).agent_id)
      if (seen.length === count) {
        stop()
        resolve(seen)
      }
    })
  })
}

const probeOf = async (store: RegistryStore, id: string) => (await store.getAgent(id))!.probe

describe('prober', () => {
  it('probes every online agent with an endpoint and a card, saves and announces the result', async () => {
    const {store, prober, announced, register} = setup()
    const a = await agent()
    const b = await agent({skills: [{id: 'draw', served: false}]})
    await register('alpha', a.url)
    await register('beta', b.url)
    await register('offline', a.url, {lastSeenMs: Date.parse('2026-06-20T11:50:00Z')})
    await register('no-endpoint', null)
    await register('no-card', a.url, {agentCard: null})
    const summary = await prober.runPass()
    expect(summary).toEqual({targets: 2, probed: 2, skipped: 0, failed: 0})
    expect(await probeOf(store, 'alpha')).toMatchObject({operational: true, card: {url: a.url}})
    expect(await probeOf(store, 'beta')).toMatchObject({operational: false})
    expect(await probeOf(store, 'offline')).toBeNull()
    expect(announced.sort()).toEqual(['alpha', 'beta'])
  })

  it('skips agents probed recently and probes them again once due', async () => {
    const {prober, register, advance} = setup()
    const a = await agent()
    await register('alpha', a.url)
    await prober.runPass()
    expect(await prober.runPass()).toMatchObject({probed: 0, skipped: 1})
    advance(50_000) // ≥ 0.8 × the 60 s interval
    expect(await prober.runPass()).toMatchObject({probed: 1, skipped: 0})
    expect(a.requestsTo('/.well-known/agent.json')).toHaveLength(2)
  })

  it('never runs two passes at once', async () => {
    const {prober, register} = setup()
    const a = await agent()
    await register('alpha', a.url)
    const first = prober.runPass()
    const second = prober.runPass()
    expect(second).toBe(first)
    await first
    expect(a.requestsTo('/.well-known/agent.json')).toHaveLength(1)
  })

  it('keeps at most `concurrency` agents in flight', async () => {
    let inFlight = 0
    let maxInFlight = 0
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const fallback = setTimeout(() => release(), 1_000)
    const fetch: ProbeFetch = async (url, init) => {
      if (!url.endsWith('/.well-known/agent.json')) return fetchPrivate(url, init)
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      if (inFlight >= 2) release()
      await gate
      try {
        return await fetchPrivate(url, init)
      } finally {
        inFlight--
      }
    }
    const {prober, register} = setup({fetch, concurrency: 2})
    const a = await agent()
    for (const id of ['a1', 'a2', 'a3', 'a4', 'a5']) await register(id, a.url)
    expect(await prober.runPass()).toMatchObject({probed: 5})
    clearTimeout(fallback)
    expect(maxInFlight).toBe(2)
  })

  it('probes a new card soon after the event, and re-probes only when the card changed', async () => {
    const {store, bus, events, prober, register, advance} = setup()
    prober.start()
    const a = await agent()
    const none = await prober.runPass() // the first pass found nobody
    expect(none.targets).toBe(0)
    await register('alpha', a.url)
    const first = announcements(bus, 1)
    events.publish('agent.card', 'alpha')
    expect(await first).toEqual(['alpha'])
    advance(20_000)
    events.publish('agent.card', 'alpha') // same card again: nothing to do
    await prober.idle()
    expect(a.requestsTo('/.well-known/agent.json')).toHaveLength(1)
    await store.updateAgent('alpha', {agentCard: {name: 'alpha', description: 'now with more skills'}})
    const second = announcements(bus, 1)
    events.publish('agent.card', 'alpha')
    expect(await second).toEqual(['alpha'])
    expect(a.requestsTo('/.well-known/agent.json')).toHaveLength(2)
  })

  it('runs its first pass soon after start', async () => {
    const {bus, prober, register} = setup()
    const a = await agent()
    await register('alpha', a.url)
    const announced = announcements(bus, 1)
    prober.start()
    expect(await announced).toEqual(['alpha'])
  })

  it('stops promptly on close and saves nothing after', async () => {
    const {store, prober, register} = setup()
    const a = await agent({skills: [{id: 'slow', reply: () => ({status: 200, body: {}, delayMs: 5_000})}]})
    await register('alpha', a.url)
    const pass = prober.runPass()
    while (a.requestsTo('/v1/slow').length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    await prober.close()
    await pass
    expect(await probeOf(store, 'alpha')).toBeNull()
  })
})

describe('probe + search parts together', () => {
  it('turn a probe into operational, card_match and invoke URLs in search results', async () => {
    const store = createMemoryRegistryStore()
    const bus = createLocalBus()
    const ctx = testContext(store, bus, () => Date.now())
    const a = await agent({skills: [
      {id: 'draw', examples: ['Draw a cat.', '{"subject": "cat"}'], returns: ['image.url'], reply: (body) => (Object.keys(body as object).length ? {status: 200, body: {image: {url: 'https://x/cat.png'}}} : {status: 400})},
      {id: 'ghost', served: false},
    ]})
    await putAgent(store, agentRecord('painter', {name: 'Painter', description: 'Draws pictures'}, {endpoint: a.url, lastSeenMs: Date.now()}))
    const search = createSearchPart(ctx, {resyncMs: 0})
    const probe = createProbePart(ctx, {allowPrivate: true, jitterMs: 0, firstPassDelayMs: 60_000})
    cleanups.push(() => search.close(), () => probe.close())
    await search.start?.()
    await probe.prober.runPass()
    await new Promise((resolve) => setImmediate(resolve))
    const [hit] = (await search.service.search(parseSearchRequest({prompt: 'draw pictures'}))).results
    expect(hit).toMatchObject({agent_id: 'painter', operational: false, card_match: '1/1', invoke: [{skill: 'draw', url: `${a.url}/v1/draw`}]})
  })

  it('keep the last good card and its invoke URLs through failed card fetches; skills that stop answering end both operational and invoke', async () => {
    let now = Date.parse('2026-06-20T12:00:00Z')
    const store = createMemoryRegistryStore()
    const bus = createLocalBus()
    const ctx = testContext(store, bus, () => now)
    const a = await agent({skills: [{id: 'draw'}]})
    await putAgent(store, agentRecord('painter', {name: 'Painter', description: 'Draws pictures'}, {endpoint: a.url, lastSeenMs: now}))
    const search = createSearchPart(ctx, {resyncMs: 0})
    const probe = createProbePart(ctx, {allowPrivate: true, jitterMs: 0, firstPassDelayMs: 60_000})
    cleanups.push(() => search.close(), () => probe.close())
    await search.start?.()
    const probeAt = async (iso: string) => {
      now = Date.parse(iso)
      await store.touchAgent('painter', now)
      expect(await probe.prober.probeOne('painter')).toBe(true)
      await new Promise((resolve) => setImmediate(resolve))
      return (await store.getAgent('painter'))!.probe!
    }
    const hit = async () => (await search.service.search(parseSearchRequest({prompt: 'draw pictures'}))).results[0]
    const invoke = [{skill: 'draw', url: `${a.url}/v1/draw`}]

    const good = await probeAt('2026-06-20T12:00:00.000Z')
    expect(good).toMatchObject({card_fetched_at: '2026-06-20T12:00:00.000Z', card_error: null, operational: true})
    a.update({card: 503})
    const failed = await probeAt('2026-06-20T12:01:00.000Z')
    expect(failed).toMatchObject({
      card: good.card,
      card_fetched_at: '2026-06-20T12:00:00.000Z',
      card_error: {at: '2026-06-20T12:01:00.000Z', reason: 'card_unavailable: GET /.well-known/agent.json answered 503'},
      operational: true,
    })
    expect(await hit()).toMatchObject({operational: true, invoke, live_check: {ok: true, source: 'health', checked_at: '2026-06-20T12:01:00.000Z'}})
    // A second failure in a row still keeps the card fetched at 12:00.
    expect(await probeAt('2026-06-20T12:02:00.000Z')).toMatchObject({card: good.card, card_fetched_at: '2026-06-20T12:00:00.000Z', card_error: {at: '2026-06-20T12:02:00.000Z'}})
    a.update({skills: [{id: 'draw', served: false}]})
    expect(await probeAt('2026-06-20T12:03:00.000Z')).toMatchObject({card: good.card, operational: false})
    expect(await hit()).toMatchObject({operational: false, invoke: []})
    a.update({card: undefined, skills: [{id: 'draw'}]})
    expect(await probeAt('2026-06-20T12:04:00.000Z')).toMatchObject({card_fetched_at: '2026-06-20T12:04:00.000Z', card_error: null, error: null, operational: true})
    expect(await hit()).toMatchObject({operational: true, invoke})
  })

  it('refuses a loopback agent unless the part allows private endpoints', async () => {
    const store = createMemoryRegistryStore()
    const ctx = testContext(store, createLocalBus(), () => Date.now())
    const a = await agent()
    await putAgent(store, agentRecord('local', {name: 'Local'}, {endpoint: a.url, lastSeenMs: Date.now()}))
    const probe = createProbePart(ctx, {jitterMs: 0, firstPassDelayMs: 60_000})
    cleanups.push(() => probe.close())
    await probe.prober.runPass()
    expect((await store.getAgent('local'))!.probe).toMatchObject({operational: false, error: expect.stringContaining('endpoint_forbidden')})
    expect(a.requests).toHaveLength(0)
  })
})
