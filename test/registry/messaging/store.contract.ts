import {describe, expect, it} from 'vitest'
import type {MessagingStore} from '../../../src/registry/messaging/store/store.js'

const T0 = Date.UTC(2026, 5, 1, 12)
const iso = (ms: number) => new Date(ms).toISOString()
const msg = (to: string, from: string, payload: unknown, at = T0) => ({to, from, payload, ts: iso(at)})

/**
 * The behaviour every MessagingStore adapter must show. `open` returns a fresh,
 * empty store (its own database or schema) for each test.
 */
export function messagingStoreContract(name: string, open: () => Promise<MessagingStore>) {
  describe(`messaging store contract: ${name}`, () => {
    it('gives monotonic ids and keeps payloads exactly', async () => {
      const store = await open()
      const payload = {z: 1, a: [1, 'two', null, {deep: true}], s: 'é ✓'}
      const a = await store.insert(msg('bob', 'ann', payload), T0)
      const b = await store.insert(msg('bob', 'ann', 'plain string'), T0)
      const c = await store.insert(msg('cat', 'ann', 42), T0)
      expect(a.route).toBe('inbox')
      expect(b.message.id).toBeGreaterThan(a.message.id)
      expect(c.message.id).toBeGreaterThan(b.message.id)
      const read = await store.consume('bob', 10)
      expect(read).toEqual([
        {id: a.message.id, to: 'bob', from: 'ann', payload, ts: iso(T0)},
        {id: b.message.id, to: 'bob', from: 'ann', payload: 'plain string', ts: iso(T0)},
      ])
      expect(JSON.stringify(read[0]!.payload)).toBe(JSON.stringify(payload))
    })

    it('consumes on read, oldest first, up to the limit', async () => {
      const store = await open()
      for (let i = 0; i < 5; i++) await store.insert(msg('bob', 'ann', i), T0)
      expect((await store.consume('bob', 3)).map((m) => m.payload)).toEqual([0, 1, 2])
      expect((await store.consume('bob', 3)).map((m) => m.payload)).toEqual([3, 4])
      expect(await store.consume('bob', 3)).toEqual([])
    })

    it('never reuses an id after the newest message is consumed', async () => {
      const store = await open()
      const first = await store.insert(msg('bob', 'ann', 1), T0)
      await store.consume('bob', 10)
      const second = await store.insert(msg('bob', 'ann', 2), T0)
      expect(second.message.id).toBeGreaterThan(first.message.id)
    })

    it('concurrent reads never return one message twice', async () => {
      const store = await open()
      for (let i = 0; i < 20; i++) await store.insert(msg('bob', 'ann', i), T0)
      const reads = await Promise.all([store.consume('bob', 7), store.consume('bob', 7), store.consume('bob', 7), store.consume('bob', 7)])
      const ids = reads.flat().map((m) => m.id)
      expect(ids).toHaveLength(20)
      expect(new Set(ids).size).toBe(20)
    })

    it('acks only the caller’s inbox messages and reports what it removed', async () => {
      const store = await open()
      const one = await store.insert(msg('bob', 'ann', 1), T0)
      const two = await store.insert(msg('bob', 'cat', 2), T0)
      const others = await store.insert(msg('cat', 'ann', 3), T0)
      const removed = await store.ack('bob', [two.message.id, others.message.id, 999_999, two.message.id])
      expect(removed.map((m) => [m.id, m.from])).toEqual([[two.message.id, 'cat']])
      expect(await store.ack('bob', [])).toEqual([])
      expect((await store.consume('bob', 10)).map((m) => m.id)).toEqual([one.message.id])
      expect((await store.consume('cat', 10)).map((m) => m.id)).toEqual([others.message.id])
    })

    it('routes to the webhook queue while a webhook is set, and moves the backlog both ways', async () => {
      const store = await open()
      await store.insert(msg('bob', 'ann', 'before'), T0)
      expect(await store.getWebhook('bob')).toBeUndefined()
      expect(await store.setWebhook('bob', 'https://bob.example/hook', 's1', T0)).toEqual({moved: 1})
      expect(await store.getWebhook('bob')).toEqual({agentId: 'bob', url: 'https://bob.example/hook', secret: 's1', createdAt: iso(T0)})
      const during = await store.insert(msg('bob', 'ann', 'during'), T0)
      expect(during.route).toBe('webhook')
      expect(await store.consume('bob', 10)).toEqual([])
      expect(await store.counts('bob')).toEqual({inbox: 0, webhook: 2, dead: 0})
      // replacing the webhook keeps the queue and swaps the secret
      await store.setWebhook('bob', 'https://bob.example/hook2', 's2', T0 + 1)
      expect((await store.getWebhook('bob'))?.secret).toBe('s2')
      expect(await store.removeWebhook('bob')).toEqual({removed: true, moved: 2})
      expect(await store.removeWebhook('bob')).toEqual({removed: false, moved: 0})
      expect((await store.consume('bob', 10)).map((m) => m.payload)).toEqual(['before', 'during'])
    })

    it('claims due deliveries once, counts attempts, hides them for the lease', async () => {
      const store = await open()
      await store.setWebhook('bob', 'https://bob.example/hook', 'sec', T0)
      const a = await store.insert(msg('bob', 'ann', 'a'), T0)
      await store.insert(msg('bob', 'ann', 'b'), T0)
      const claimed = await store.claimDeliveries(T0, 1, 60_000)
      expect(claimed).toEqual([{id: a.message.id, to: 'bob', from: 'ann', payload: 'a', ts: iso(T0), attempts: 1, url: 'https://bob.example/hook', secret: 'sec'}])
      const rest = await store.claimDeliveries(T0, 10, 60_000)
      expect(rest.map((d) => d.payload)).toEqual(['b'])
      expect(await store.claimDeliveries(T0 + 59_999, 10, 60_000)).toEqual([])
      // a crashed worker's claim comes back after the lease, as a second attempt
      const again = await store.claimDeliveries(T0 + 60_000, 10, 60_000)
      expect(again.map((d) => [d.payload, d.attempts])).toEqual([
        ['a', 2],
        ['b', 2],
      ])
    })

    it('concurrent claims never hand out one delivery twice', async () => {
      const store = await open()
      await store.setWebhook('bob', 'https://bob.example/hook', 'sec', T0)
      for (let i = 0; i < 12; i++) await store.insert(msg('bob', 'ann', i), T0)
      const claims = await Promise.all([1, 2, 3, 4].map(() => store.claimDeliveries(T0, 5, 60_000)))
      const ids = claims.flat().map((d) => d.id)
      expect(ids).toHaveLength(12)
      expect(new Set(ids).size).toBe(12)
    })

    it('completes, retries later, and dead-letters deliveries', async () => {
      const store = await open()
      await store.setWebhook('bob', 'https://bob.example/hook', 'sec', T0)
      const ok = await store.insert(msg('bob', 'ann', 'ok'), T0)
      const flaky = await store.insert(msg('bob', 'ann', 'flaky'), T0)
      await store.claimDeliveries(T0, 10, 60_000)
      await store.completeDelivery(ok.message.id)
      await store.failDelivery(flaky.message.id, 'HTTP 500', T0 + 2000, T0)
      expect(await store.claimDeliveries(T0 + 1999, 10, 60_000)).toEqual([])
      const retry = await store.claimDeliveries(T0 + 2000, 10, 60_000)
      expect(retry.map((d) => [d.id, d.attempts])).toEqual([[flaky.message.id, 2]])
      await store.failDelivery(flaky.message.id, 'connection refused', null, T0 + 3000)
      expect(await store.claimDeliveries(T0 + 10_000_000, 10, 60_000)).toEqual([])
      expect(await store.counts('bob')).toEqual({inbox: 0, webhook: 0, dead: 1})
      const dead = await store.listDeadLetters('bob', 10)
      expect(dead).toEqual([{id: flaky.message.id, to: 'bob', from: 'ann', payload: 'flaky', ts: iso(T0), attempts: 2, lastError: 'connection refused', deadAt: iso(T0 + 3000)}])
      expect(await store.requeueDeadLetters('bob', T0 + 5000)).toBe(1)
      const requeued = await store.claimDeliveries(T0 + 5000, 10, 60_000)
      expect(requeued.map((d) => [d.id, d.attempts])).toEqual([[flaky.message.id, 1]])
    })

    it('gives the queue back to the inbox when the webhook is removed, so nothing is claimed after', async () => {
      const store = await open()
      await store.setWebhook('bob', 'https://bob.example/hook', 'sec', T0)
      const m = await store.insert(msg('bob', 'ann', 'x'), T0)
      await store.removeWebhook('bob')
      expect(await store.claimDeliveries(T0, 10, 1000)).toEqual([])
      expect((await store.consume('bob', 10)).map((r) => r.id)).toEqual([m.message.id])
    })

    it('allocates live ids from the same sequence and stores a fallback under that id', async () => {
      const store = await open()
      await store.touchNode('node-a', T0)
      await store.addPresence('bob', 'node-a', T0)
      const before = await store.insert(msg('bob', 'ann', 'stored'), T0)
      const live = await store.prepareLive('bob', T0)
      expect(live.nodes).toEqual(['node-a'])
      expect(live.id).toBeGreaterThan(before.message.id)
      expect((await store.prepareLive('cat', T0)).nodes).toEqual([])
      const fallback = await store.insert({...msg('cat', 'ann', 'fell back'), id: live.id}, T0)
      expect(fallback.message.id).toBe(live.id)
      const after = await store.insert(msg('bob', 'ann', 'later'), T0)
      expect(after.message.id).toBeGreaterThan(live.id + 1)
      expect((await store.consume('cat', 10)).map((m) => [m.id, m.payload])).toEqual([[live.id, 'fell back']])
    })

    it('tracks presence per node and forgets stale nodes', async () => {
      const store = await open()
      expect(await store.touchNode('node-a', T0)).toBe(false)
      expect(await store.touchNode('node-a', T0)).toBe(true)
      await store.touchNode('node-b', T0)
      await store.addPresence('bob', 'node-a', T0)
      await store.addPresence('bob', 'node-a', T0) // a second socket on the same node
      await store.addPresence('bob', 'node-b', T0)
      await store.addPresence('cat', 'node-b', T0)
      expect(await store.nodesOf('bob', T0 - 1)).toEqual(['node-a', 'node-b'])
      expect(await store.nodesOf('nobody', T0 - 1)).toEqual([])
      await store.removePresence('bob', 'node-a')
      expect(await store.nodesOf('bob', T0 - 1)).toEqual(['node-b'])
      // a node that stopped heartbeating does not count, then is swept
      await store.touchNode('node-a', T0 + 20_000)
      await store.addPresence('bob', 'node-a', T0 + 20_000)
      expect(await store.nodesOf('bob', T0 + 5000)).toEqual(['node-a'])
      expect(await store.listNodes()).toEqual([
        {node_id: 'node-a', seen_at: T0 + 20_000},
        {node_id: 'node-b', seen_at: T0},
      ])
      // node-b goes with its two agents (bob and cat), and is reported once
      expect(await store.sweepNodes(T0 + 5000)).toEqual([{node_id: 'node-b', members: 2}])
      expect(await store.sweepNodes(T0 + 5000)).toEqual([])
      expect(await store.listNodes()).toEqual([{node_id: 'node-a', seen_at: T0 + 20_000}])
      expect(await store.nodesOf('cat', 0)).toEqual([])
      expect(await store.touchNode('node-b', T0 + 30_000)).toBe(false) // swept: the node must re-announce
      await store.removeNode('node-a')
      expect(await store.nodesOf('bob', 0)).toEqual([])
    })
  })
}
