import {afterEach, describe, expect, it} from 'vitest'
import {safeFetch} from '../../../src/http/safe-fetch.js'
import {probeAgent, type ProbeFetch} from '../../../src/registry/probe/probe-agent.js'
import {startTestAgent, testAgentCard, type TestAgent, type TestAgentOptions} from '../../support/test-agent.js'

const NOW = Date.parse('2026-06-20T12:00:00Z')
const fetchPrivate: ProbeFetch = (url, init) => safeFetch(url, {...init, allowPrivate: true, timeoutMs: 1_000})
const fetchPublicOnly: ProbeFetch = (url, init) => safeFetch(url, {...init, timeoutMs: 1_000})

let agents: TestAgent[] = []
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()))
  agents = []
})

async function agent(options: TestAgentOptions) {
  const started = await startTestAgent(options)
  agents.push(started)
  return started
}

const probe = (a: TestAgent, fetch = fetchPrivate, discoveryCard: Record<string, unknown> | null = {name: 'x', availability: {now: true}}) =>
  probeAgent({agentId: 'a1', endpoint: a.url, discoveryCard}, {fetch, now: () => NOW})

describe('probeAgent', () => {
  it('marks an agent operational when every skill answers, and keeps its PublicCard', async () => {
    const a = await agent({skills: [{id: 'draw'}, {id: 'paint'}]})
    const result = await probe(a)
    expect(result.operational).toBe(true)
    expect(result.card_match).toBeNull()
    expect(result.card).toMatchObject({url: a.url, skills: [{id: 'draw'}, {id: 'paint'}]})
    expect(result.probed_at).toBe('2026-06-20T12:00:00.000Z')
    expect(result.error).toBeNull()
    expect(result.skills).toEqual([
      {id: 'draw', url: `${a.url}/v1/draw`, answering: true, status: 400, card_match: null},
      {id: 'paint', url: `${a.url}/v1/paint`, answering: true, status: 400, card_match: null},
    ])
    // spec: the operational probe is a POST of an empty JSON object
    expect(a.requestsTo('/v1/draw')).toMatchObject([{method: 'POST', body: '{}'}])
    expect(a.requestsTo('/v1/draw')[0].headers['x-mesh-probe']).toBe('1')
    expect(a.requestsTo('/v1/draw')[0].headers['content-type']).toBe('application/json')
  })

  it.each([
    [400, true], [401, true], [402, true], [422, true], [200, true],
    [404, false], [405, false], [500, false], [503, false],
  ])('counts a %i answer to POST {} as answering=%s', async (status, answering) => {
    const a = await agent({skills: [{id: 'only', reply: () => ({status, body: {}})}]})
    const result = await probe(a)
    expect(result.skills[0]).toMatchObject({answering, status})
    expect(result.operational).toBe(answering)
  })

  it('is not operational when any advertised skill is missing', async () => {
    const a = await agent({skills: [{id: 'draw'}, {id: 'ghost', served: false}]})
    const result = await probe(a)
    expect(result.operational).toBe(false)
    expect(result.skills.map((s) => s.answering)).toEqual([true, false])
  })

  it('counts a skill that times out as not answering', async () => {
    const a = await agent({skills: [{id: 'slow', reply: () => ({status: 200, body: {}, delayMs: 3_000})}]})
    const result = await probe(a)
    expect(result.skills[0]).toMatchObject({answering: false, status: null, error: expect.stringMatching(/^timeout/)})
    expect(result.operational).toBe(false)
  })

  it('computes card_match from the skill\'s own JSON example', async () => {
    const a = await agent({skills: [{
      id: 'translate',
      examples: ['Translate "hello" to French.', '{"text": "hello", "to": "fr"}'],
      returns: ['result.text', 'result.lang', 'meta.request_id'],
      reply: (body) => (body && Object.keys(body as object).length > 0
        ? {status: 200, body: {result: {text: 'bonjour', lang: 'fr'}, meta: {request_id: null}}}
        : {status: 400, body: {}}),
    }]})
    const result = await probe(a)
    expect(result.skills[0]).toMatchObject({answering: true, card_match: '2/3'})
    expect(result.card_match).toBe('2/3')
    expect(a.requestsTo('/v1/translate').map((r) => r.body)).toEqual(['{}', '{"text":"hello","to":"fr"}'])
  })

  it('reads nested and indexed paths and takes the best of two examples', async () => {
    const a = await agent({skills: [{
      id: 'search',
      examples: ['{"q": "cats"}', '{"q": "dogs"}'],
      returns: ['items[0].url', 'items.title', 'total'],
      reply: (body) => ((body as {q?: string})?.q === 'dogs'
        ? {status: 200, body: {items: [{url: 'https://x', title: 'Dogs'}], total: 1}}
        : {status: 200, body: {items: [], total: 0}}),
    }]})
    const result = await probe(a)
    expect(result.skills[0].card_match).toBe('3/3')
  })

  it('sums card_match over skills and counts a failed example as 0', async () => {
    const a = await agent({skills: [
      {id: 'one', examples: ['{"a": 1}', 'ask'], returns: ['x', 'y'], reply: (b) => (Object.keys(b as object).length ? {status: 200, body: {x: 1}} : {status: 400})},
      {id: 'two', examples: ['{"a": 1}', 'ask'], returns: ['z'], reply: (b) => (Object.keys(b as object).length ? {status: 500, body: {z: 1}} : {status: 400})},
      {id: 'three'},
    ]})
    const result = await probe(a)
    expect(result.skills.map((s) => s.card_match)).toEqual(['1/2', '0/1', null])
    expect(result.card_match).toBe('1/3')
  })

  it('never content-probes a skill with probe: false', async () => {
    const a = await agent({skills: [{id: 'private', probe: false, examples: ['{"a": 1}', 'ask'], returns: ['x']}]})
    const result = await probe(a)
    expect(result.skills[0]).toMatchObject({answering: true, card_match: null, card_match_skipped: 'probe_disabled'})
    expect(a.requestsTo('/v1/private').map((r) => r.body)).toEqual(['{}'])
    expect(result.card_match).toBeNull()
  })

  it('never content-probes a paid skill (card or skill pricing)', async () => {
    const paidCard = await agent({pricing: {unit: 'request', amount: 5000, currency: 'lamports'}, skills: [{id: 'gen', examples: ['{"a": 1}', 'ask'], returns: ['x']}]})
    const result = await probe(paidCard)
    expect(result.skills[0]).toMatchObject({card_match: null, card_match_skipped: 'paid'})
    expect(paidCard.requestsTo('/v1/gen').map((r) => r.body)).toEqual(['{}'])
    const paidSkill = await agent({skills: [{id: 'gen', examples: ['{"a": 1}', 'ask'], returns: ['x'], pricing: {unit: 'request', amount: 1, currency: 'USD'}}]})
    expect((await probe(paidSkill)).skills[0].card_match_skipped).toBe('paid')
    const freeCurrency = await agent({pricing: {unit: 'request', amount: 3, currency: 'free'}, skills: [{id: 'gen', examples: ['{"a": 1}', 'ask'], returns: ['x'], reply: () => ({status: 200, body: {x: 1}})}]})
    expect((await probe(freeCurrency)).skills[0].card_match).toBe('1/1')
  })

  it('skips card_match when no example is a JSON object', async () => {
    const a = await agent({skills: [{id: 'chat', examples: ['Say hi.', '[1, 2]', '{not json'], returns: ['reply']}]})
    const result = await probe(a)
    expect(result.skills[0]).toMatchObject({card_match: null, card_match_skipped: 'no_json_example'})
    expect(a.requestsTo('/v1/chat')).toHaveLength(1)
  })

  it('reads /health: ok, not ok, missing (availability.now) and failing', async () => {
    const ok = await agent({skills: [{id: 's'}]})
    expect((await probe(ok)).health).toEqual({status: 200, ok: true, live: true, source: 'health'})
    const notOk = await agent({skills: [{id: 's'}], health: {status: 200, body: {ok: false, agent_id: 'a1'}}})
    expect((await probe(notOk)).health).toMatchObject({ok: false, live: false, source: 'health'})
    const missingLive = await agent({skills: [{id: 's'}], health: 'missing'})
    expect((await probe(missingLive)).health).toEqual({status: 404, ok: null, live: true, source: 'availability'})
    const missingAway = await agent({skills: [{id: 's'}], health: 'missing', availabilityNow: false})
    expect((await probe(missingAway)).health).toMatchObject({live: false, source: 'availability'})
    const broken = await agent({skills: [{id: 's'}], health: {status: 500, body: {}}})
    expect((await probe(broken)).health).toMatchObject({status: 500, live: false})
  })

  it('falls back to the DiscoveryCard availability when the card is gone and /health is missing', async () => {
    const a = await agent({card: 404, health: 'missing'})
    expect((await probe(a, fetchPrivate, {availability: {now: false}})).health).toMatchObject({live: false, source: 'availability'})
  })

  it('is not operational when the card is missing, not JSON or invalid', async () => {
    const missing = await agent({card: 404})
    expect(await probe(missing)).toMatchObject({card: null, operational: false, card_match: null, skills: [], error: expect.stringMatching(/^card_unavailable/)})
    const invalid = await agent({card: (url) => ({...testAgentCard(url, {}), skills: undefined})})
    expect(await probe(invalid)).toMatchObject({card: null, operational: false, error: expect.stringMatching(/^card_invalid: .*skills/)})
    const badSkill = await agent({card: (url) => testAgentCard(url, {skills: [{id: 'Not Kebab'}]})})
    expect((await probe(badSkill)).error).toMatch(/^card_invalid: skills\[0\]\.id/)
  })

  it('records a failed fetch without a card ever fetched: no card, no fetch time, the failure with its time', async () => {
    const a = await agent({card: 503, skills: [{id: 'draw'}]})
    expect(await probe(a)).toMatchObject({
      card: null,
      card_fetched_at: null,
      card_error: {at: '2026-06-20T12:00:00.000Z', reason: 'card_unavailable: GET /.well-known/agent.json answered 503'},
      operational: false,
      skills: [],
    })
    expect(a.requestsTo('/v1/draw')).toHaveLength(0)
  })

  it('stamps a fresh card with its fetch time and no failure', async () => {
    const a = await agent({skills: [{id: 'draw'}]})
    const old = {card: testAgentCard(a.url, {name: 'Old', skills: [{id: 'paint'}]}), fetchedAt: '2026-06-20T11:00:00.000Z'}
    const result = await probeAgent({agentId: 'a1', endpoint: a.url, discoveryCard: null, lastCard: old}, {fetch: fetchPrivate, now: () => NOW})
    expect(result).toMatchObject({card: {name: 'Test agent'}, card_fetched_at: '2026-06-20T12:00:00.000Z', card_error: null, error: null})
    expect(result.skills.map((s) => s.id)).toEqual(['draw'])
  })

  describe('a failed card fetch keeps the last good card', () => {
    const keptAt = '2026-06-20T11:00:00.000Z'
    const probeKept = (a: TestAgent, skills: TestAgentOptions['skills'], discoveryCard: Record<string, unknown> | null = {availability: {now: true}}) =>
      probeAgent(
        {agentId: 'a1', endpoint: a.url, discoveryCard, lastCard: {card: testAgentCard(a.url, {skills}), fetchedAt: keptAt}},
        {fetch: fetchPrivate, now: () => NOW},
      )

    it.each([
      ['answers 503', 503],
      ['answers 404', 404],
      ['serves an invalid card', (url: string) => ({...testAgentCard(url, {}), skills: 'none'})],
    ] as const)('when the agent %s: the card, its fetch time and the skills\' probes stay; the failure is recorded beside them', async (_label, card) => {
      const a = await agent({card, skills: [{id: 'draw'}, {id: 'paint'}]})
      const result = await probeKept(a, [{id: 'draw'}, {id: 'paint'}])
      expect(result.card).toEqual(testAgentCard(a.url, {skills: [{id: 'draw'}, {id: 'paint'}]}))
      expect(result.card_fetched_at).toBe(keptAt)
      expect(result.card_error).toEqual({at: '2026-06-20T12:00:00.000Z', reason: expect.stringMatching(/^card_(unavailable|invalid): /)})
      expect(result.error).toBe(result.card_error!.reason)
      // spec: operational = every advertised skill (the kept card's) last probed as answering.
      expect(result.operational).toBe(true)
      expect(result.skills.map((s) => [s.id, s.url, s.answering])).toEqual([['draw', `${a.url}/v1/draw`, true], ['paint', `${a.url}/v1/paint`, true]])
    })

    it('is not operational once a kept card\'s skill stops answering', async () => {
      const a = await agent({card: 503, skills: [{id: 'draw'}, {id: 'paint', served: false}]})
      const result = await probeKept(a, [{id: 'draw'}, {id: 'paint'}])
      expect(result).toMatchObject({card_fetched_at: keptAt, operational: false})
      expect(result.skills.map((s) => s.answering)).toEqual([true, false])
    })

    it('is not operational when the whole agent is unreachable, and still keeps the card', async () => {
      const a = await agent({skills: [{id: 'draw'}]})
      await a.close()
      const result = await probeKept(a, [{id: 'draw'}])
      expect(result).toMatchObject({card_fetched_at: keptAt, operational: false, card_error: {reason: expect.stringMatching(/^card_unreachable: /)}})
      expect(result.live_check).toEqual({ok: false, source: 'health', checked_at: '2026-06-20T12:00:00.000Z'})
    })

    it('drops a kept card that no longer satisfies the PublicCard schema', async () => {
      const a = await agent({card: 503, skills: [{id: 'draw'}]})
      const result = await probeAgent(
        {agentId: 'a1', endpoint: a.url, discoveryCard: null, lastCard: {card: {name: 'no skills'}, fetchedAt: keptAt}},
        {fetch: fetchPrivate, now: () => NOW},
      )
      expect(result).toMatchObject({card: null, card_fetched_at: null, operational: false})
    })

    it('judges a missing /health by the DiscoveryCard, not the stale kept card', async () => {
      const a = await agent({card: 503, health: 'missing', skills: [{id: 'draw'}]})
      const result = await probeKept(a, [{id: 'draw'}], {availability: {now: false}})
      expect(result.live_check).toEqual({ok: false, source: 'availability', checked_at: '2026-06-20T12:00:00.000Z'})
    })
  })

  it('records live_check: /health ok or not, and availability.now of the fetched card without /health', async () => {
    const at = '2026-06-20T12:00:00.000Z'
    expect((await probe(await agent({skills: [{id: 's'}]}))).live_check).toEqual({ok: true, source: 'health', checked_at: at})
    const notOk = await agent({skills: [{id: 's'}], health: {status: 200, body: {ok: false, agent_id: 'a1'}}})
    expect((await probe(notOk)).live_check).toEqual({ok: false, source: 'health', checked_at: at})
    const noHealthAway = await agent({skills: [{id: 's'}], health: 'missing', availabilityNow: false})
    // The fetched PublicCard decides even when the DiscoveryCard says now: true.
    expect((await probe(noHealthAway, fetchPrivate, {availability: {now: true}})).live_check).toEqual({ok: false, source: 'availability', checked_at: at})
    const noHealthHere = await agent({skills: [{id: 's'}], health: 'missing'})
    expect((await probe(noHealthHere)).live_check).toEqual({ok: true, source: 'availability', checked_at: at})
  })

  it('reports operational null for a card that advertises no skills', async () => {
    const a = await agent({skills: []})
    expect(await probe(a)).toMatchObject({operational: null, card_match: null, skills: []})
  })

  it('probes skills under an agent living below a path prefix', async () => {
    const a = await agent({basePath: '/agents/a1', skills: [{id: 'draw'}]})
    const result = await probe(a)
    expect(result.skills[0]).toMatchObject({url: `${a.url}/v1/draw`, answering: true})
  })

  it('never follows a card url to another origin', async () => {
    const other = await agent({skills: [{id: 'draw'}]})
    const a = await agent({skills: [{id: 'draw'}], card: () => testAgentCard(other.url, {skills: [{id: 'draw'}]})})
    const result = await probe(a)
    expect(result.skills[0].url).toBe(`${a.url}/v1/draw`)
    expect(other.requests).toHaveLength(0)
  })

  it('refuses a private endpoint without --allow-private-endpoints, sending nothing', async () => {
    const a = await agent({skills: [{id: 'draw'}]})
    const result = await probe(a, fetchPublicOnly)
    expect(result).toMatchObject({card: null, operational: false, error: expect.stringMatching(/^card_unreachable: endpoint_forbidden/)})
    expect(result.health).toMatchObject({live: false, error: expect.stringMatching(/^endpoint_forbidden/)})
    expect(a.requests).toHaveLength(0)
  })

  it('records the hash of the DiscoveryCard it probed against', async () => {
    const a = await agent({skills: [{id: 'draw'}]})
    const first = await probe(a, fetchPrivate, {name: 'x'})
    const same = await probe(a, fetchPrivate, {name: 'x'})
    const changed = await probe(a, fetchPrivate, {name: 'y'})
    expect(first.discovery_card_hash).toMatch(/^[0-9a-f]{32}$/)
    expect(same.discovery_card_hash).toBe(first.discovery_card_hash)
    expect(changed.discovery_card_hash).not.toBe(first.discovery_card_hash)
  })
})
