/**
 * The behaviour every RegistryStore must have. Each adapter's test file calls
 * `registryStoreContract(name, open)`; `open` returns a fresh, empty store
 * and a cleanup function.
 */
import {afterEach, describe, expect, it} from 'vitest'
import type {RegistryStore} from '../../../src/registry/store/store.js'
import type {NewAgent, ProbeResult} from '../../../src/registry/types.js'

export type OpenStore = () => Promise<{store: RegistryStore; cleanup: () => Promise<void>}>

const agent = (agentId: string, over: Partial<NewAgent> = {}): NewAgent => ({
  agentId,
  apiKeyHash: 'a'.repeat(64),
  pubkey: null,
  endpoint: null,
  capabilities: ['x'],
  createdAtMs: 1000,
  ...over,
})

export function registryStoreContract(name: string, open: OpenStore) {
  describe(`RegistryStore contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = []
    const fresh = async () => {
      const opened = await open()
      cleanups.push(async () => {
        await opened.store.close()
        await opened.cleanup()
      })
      return opened.store
    }
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup()
    })

    it('creates an agent once and reads it back with defaults', async () => {
      const store = await fresh()
      expect(await store.createAgent(agent('alpha', {pubkey: 'PK', endpoint: 'https://a.example', capabilities: ['one', 'two']}))).toBe(true)
      expect(await store.createAgent(agent('alpha'))).toBe(false)
      expect(await store.getAgent('alpha')).toEqual({
        agentId: 'alpha',
        apiKeyHash: 'a'.repeat(64),
        pubkey: 'PK',
        endpoint: 'https://a.example',
        capabilities: ['one', 'two'],
        agentCard: null,
        description: null,
        displayName: null,
        ownerClass: 'third-party',
        brand: null,
        createdAtMs: 1000,
        lastSeenMs: null,
        probe: null,
      })
      expect(await store.getAgent('nobody')).toBeNull()
    })

    it('refuses a concurrent duplicate: exactly one create wins', async () => {
      const store = await fresh()
      const results = await Promise.all([store.createAgent(agent('dup')), store.createAgent(agent('dup')), store.createAgent(agent('dup'))])
      expect(results.filter(Boolean)).toHaveLength(1)
    })

    it('patches fields, JSON included, and leaves the others alone', async () => {
      const store = await fresh()
      await store.createAgent(agent('alpha'))
      const card = {name: 'Alpha', tags: ['a'], nested: {deep: [1, {x: null}]}, unicode: 'é 漢字'}
      expect(
        await store.updateAgent('alpha', {agentCard: card, capabilities: ['a'], displayName: 'Alpha', ownerClass: 'core', brand: 'acme', description: 'hi'}),
      ).toBe(true)
      const read = await store.getAgent('alpha')
      expect(read).toMatchObject({agentCard: card, capabilities: ['a'], displayName: 'Alpha', ownerClass: 'core', brand: 'acme', description: 'hi', apiKeyHash: 'a'.repeat(64)})
      expect(await store.updateAgent('alpha', {brand: null, apiKeyHash: 'b'.repeat(64)})).toBe(true)
      expect(await store.getAgent('alpha')).toMatchObject({brand: null, apiKeyHash: 'b'.repeat(64), displayName: 'Alpha'})
      expect(await store.updateAgent('ghost', {brand: 'x'})).toBe(false)
      expect(await store.updateAgent('alpha', {})).toBe(true)
      expect(await store.updateAgent('ghost', {})).toBe(false)
    })

    it('applies a patch only where it differs: changed, unchanged (nothing written) or missing', async () => {
      const store = await fresh()
      await store.createAgent(agent('alpha'))
      const card = {name: 'Alpha', tags: ['a'], nested: {deep: [1, {x: null}]}, unicode: 'é 漢字'}
      const patch = {agentCard: card, capabilities: ['a'], displayName: 'Alpha', brand: null, description: 'hi'}
      expect(await store.applyAgentPatch('alpha', patch)).toBe('changed')
      expect(await store.getAgent('alpha')).toMatchObject({agentCard: card, capabilities: ['a'], displayName: 'Alpha', description: 'hi'})
      // The same values again (fresh objects, same JSON): nothing to write.
      expect(await store.applyAgentPatch('alpha', structuredClone(patch))).toBe('unchanged')
      expect(await store.applyAgentPatch('alpha', {displayName: 'Alpha'})).toBe('unchanged')
      // One field differing is enough, and only then is the patch written.
      expect(await store.applyAgentPatch('alpha', {...patch, agentCard: {...card, nested: {deep: [2]}}})).toBe('changed')
      expect((await store.getAgent('alpha'))!.agentCard).toEqual({...card, nested: {deep: [2]}})
      expect(await store.applyAgentPatch('alpha', {brand: 'acme'})).toBe('changed')
      expect(await store.applyAgentPatch('alpha', {brand: null})).toBe('changed')
      expect(await store.applyAgentPatch('alpha', {brand: null})).toBe('unchanged')
      expect(await store.applyAgentPatch('alpha', {})).toBe('unchanged')
      expect(await store.applyAgentPatch('ghost', patch)).toBe('missing')
      expect(await store.applyAgentPatch('ghost', {})).toBe('missing')
      expect(await store.getAgent('alpha')).toMatchObject({displayName: 'Alpha', brand: null, apiKeyHash: 'a'.repeat(64)})
    })

    it('reads just the api-key hash', async () => {
      const store = await fresh()
      await store.createAgent(agent('alpha', {apiKeyHash: 'c'.repeat(64)}))
      expect(await store.getApiKeyHash('alpha')).toBe('c'.repeat(64))
      await store.updateAgent('alpha', {apiKeyHash: 'd'.repeat(64)})
      expect(await store.getApiKeyHash('alpha')).toBe('d'.repeat(64))
      expect(await store.getApiKeyHash('ghost')).toBeNull()
    })

    it('answers concurrent heartbeats each with the watermark it replaced', async () => {
      const store = await fresh()
      for (const id of ['alpha', 'bravo']) await store.createAgent(agent(id))
      const [a1, b1, a2, ghost, a3, b2] = await Promise.all([
        store.touchAgent('alpha', 1000),
        store.touchAgent('bravo', 1500),
        store.touchAgent('alpha', 2000),
        store.touchAgent('ghost', 2500),
        store.touchAgent('alpha', 1800),
        store.touchAgent('bravo', 3000),
      ])
      expect(ghost).toBeUndefined()
      // Whatever order they ran in: exactly one saw no watermark, the others a watermark set by another call.
      expect([a1, a2, a3].filter((previous) => previous === null)).toHaveLength(1)
      for (const previous of [a1, a2, a3]) expect([null, 1000, 1800, 2000]).toContain(previous)
      expect([b1, b2].filter((previous) => previous === null)).toHaveLength(1)
      for (const previous of [b1, b2]) expect([null, 1500, 3000]).toContain(previous)
      expect((await store.getAgent('alpha'))!.lastSeenMs).toBe(2000)
      expect((await store.getAgent('bravo'))!.lastSeenMs).toBe(3000)
    })

    it('moves the heartbeat watermark forward only and returns the previous one', async () => {
      const store = await fresh()
      await store.createAgent(agent('alpha'))
      expect(await store.touchAgent('alpha', 5000)).toBeNull()
      expect(await store.touchAgent('alpha', 7000)).toBe(5000)
      expect(await store.touchAgent('alpha', 6000)).toBe(7000)
      expect((await store.getAgent('alpha'))!.lastSeenMs).toBe(7000)
      expect(await store.touchAgent('ghost', 1)).toBeUndefined()
    })

    it('lists by keyset in agent_id byte order, filtered by liveness', async () => {
      const store = await fresh()
      for (const id of ['delta', 'Bravo', 'alpha', 'charlie', 'echo']) await store.createAgent(agent(id))
      await store.touchAgent('alpha', 10_000)
      await store.touchAgent('charlie', 1_000)
      await store.touchAgent('echo', 20_000)
      const first = await store.listAgents({limit: 2})
      expect(first.agents.map((a) => a.agentId)).toEqual(['Bravo', 'alpha'])
      expect(first.nextAfter).toBe('alpha')
      const second = await store.listAgents({limit: 2, after: first.nextAfter!})
      expect(second.agents.map((a) => a.agentId)).toEqual(['charlie', 'delta'])
      const last = await store.listAgents({limit: 2, after: second.nextAfter!})
      expect(last.agents.map((a) => a.agentId)).toEqual(['echo'])
      expect(last.nextAfter).toBeNull()
      const online = await store.listAgents({limit: 10, online: true, onlineSinceMs: 5_000})
      expect(online.agents.map((a) => a.agentId)).toEqual(['alpha', 'echo'])
      const offline = await store.listAgents({limit: 10, online: false, onlineSinceMs: 5_000})
      expect(offline.agents.map((a) => a.agentId)).toEqual(['Bravo', 'charlie', 'delta'])
      const exact = await store.listAgents({limit: 2, online: true, onlineSinceMs: 5_000})
      expect(exact.nextAfter).toBeNull()
    })

    it('finds agents whose watermark fell in a window (the offline sweep)', async () => {
      const store = await fresh()
      for (const id of ['a1', 'a2', 'a3']) await store.createAgent(agent(id))
      await store.touchAgent('a1', 100)
      await store.touchAgent('a2', 200)
      await store.touchAgent('a3', 300)
      expect(await store.listSeenBetween(100, 300)).toEqual(['a1', 'a2'])
      expect(await store.listSeenBetween(300, 301)).toEqual(['a3'])
      expect(await store.listSeenBetween(0, 100)).toEqual([])
    })

    it('saves probe results and lists probe targets (online, endpoint and card)', async () => {
      const store = await fresh()
      await store.createAgent(agent('ready', {endpoint: 'https://r.example'}))
      await store.createAgent(agent('nocard', {endpoint: 'https://n.example'}))
      await store.createAgent(agent('noendpoint'))
      await store.createAgent(agent('stale', {endpoint: 'https://s.example'}))
      for (const id of ['ready', 'nocard', 'noendpoint', 'stale']) await store.updateAgent(id, id === 'nocard' ? {} : {agentCard: {name: id}})
      for (const id of ['ready', 'nocard', 'noendpoint']) await store.touchAgent(id, 10_000)
      await store.touchAgent('stale', 1_000)
      const targets = await store.listProbeTargets(5_000)
      expect(targets.map((a) => a.agentId)).toEqual(['ready'])
      const probe: ProbeResult = {probed_at: '2026-01-01T00:00:00.000Z', card: {name: 'Ready', skills: []}, operational: true, card_match: '2/3'}
      await store.saveProbe('ready', probe)
      await store.saveProbe('ghost', probe)
      expect((await store.getAgent('ready'))!.probe).toEqual(probe)
    })

    it('keeps what the prober saves beside a kept card: its fetch time, the failure since, the live check', async () => {
      const store = await fresh()
      await store.createAgent(agent('kept', {endpoint: 'https://k.example'}))
      const probe: ProbeResult = {
        probed_at: '2026-01-01T00:02:00.000Z',
        card: {name: 'Kept', skills: [{id: 'draw'}]},
        card_fetched_at: '2026-01-01T00:01:00.000Z',
        card_error: {at: '2026-01-01T00:02:00.000Z', reason: 'card_unavailable: GET /.well-known/agent.json answered 503'},
        live_check: {ok: false, source: 'availability', checked_at: '2026-01-01T00:02:00.000Z'},
        operational: true,
        card_match: null,
        skills: [{id: 'draw', url: 'https://k.example/v1/draw', answering: true, status: 400, card_match: null}],
        error: 'card_unavailable: GET /.well-known/agent.json answered 503',
      }
      await store.saveProbe('kept', probe)
      expect((await store.getAgent('kept'))!.probe).toEqual(probe)
      expect((await store.listProbeTargets(0)).length).toBe(0) // no card pushed, no heartbeat: not a target
      const fixed: ProbeResult = {...probe, probed_at: '2026-01-01T00:03:00.000Z', card_fetched_at: '2026-01-01T00:03:00.000Z', card_error: null, error: null}
      await store.saveProbe('kept', fixed)
      expect((await store.getAgent('kept'))!.probe).toEqual(fixed)
    })

    it('uses a nonce once until it expires, atomically', async () => {
      const store = await fresh()
      expect(await store.useNonce('pk:n1', 2_000, 1_000)).toBe(true)
      expect(await store.useNonce('pk:n1', 2_500, 1_500)).toBe(false)
      expect(await store.useNonce('pk:n2', 2_000, 1_500)).toBe(true)
      // Expired: may be used again (only happens beyond the accepted skew).
      expect(await store.useNonce('pk:n1', 4_000, 2_000)).toBe(true)
      const race = await Promise.all([1, 2, 3, 4].map(() => store.useNonce('pk:race', 9_000, 3_000)))
      expect(race.filter(Boolean)).toHaveLength(1)
    })

    it('counts agents registered and online in one read, and answers a ping', async () => {
      const store = await fresh()
      expect(await store.countAgents(0)).toEqual({registered: 0, online: 0})
      for (const id of ['alpha', 'bravo', 'charlie']) await store.createAgent(agent(id))
      await store.touchAgent('alpha', 1000)
      await store.touchAgent('bravo', 3000)
      // Online means seen at or after the cutoff; charlie was never seen.
      expect(await store.countAgents(1000)).toEqual({registered: 3, online: 2})
      expect(await store.countAgents(2000)).toEqual({registered: 3, online: 1})
      await expect(store.ping()).resolves.toBeUndefined()
    })

    it('keeps the first claimed secret', async () => {
      const store = await fresh()
      expect(await store.claimSecret('jwt', 'first')).toBe('first')
      expect(await store.claimSecret('jwt', 'second')).toBe('first')
      expect(await store.claimSecret('admin', 'other')).toBe('other')
    })
  })
}
