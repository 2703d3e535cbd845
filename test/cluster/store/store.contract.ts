import {describe, expect, it} from 'vitest'
import type {ClusterStore, NewCluster, PresenceEntry} from '../../../src/cluster/store/store.js'
import {hashToken} from '../../../src/cluster/tokens.js'

let counter = 0
/** A new cluster row with unique id; override any field. */
export function newCluster(overrides: Partial<NewCluster> = {}): NewCluster {
  counter++
  return {
    cluster_id: `c_test${String(counter).padStart(4, '0')}${Math.random().toString(36).slice(2, 14)}`,
    name: `Cluster ${counter}`,
    slug: null,
    visibility: 'private',
    topic: null,
    description: null,
    props: {},
    persist: false,
    created_at: new Date(1_700_000_000_000 + counter * 1000).toISOString(),
    token_hash: hashToken('ck_x' + counter),
    admin_token_hash: hashToken('ak_x' + counter),
    ...overrides,
  }
}

const presence = (overrides: Partial<PresenceEntry>): PresenceEntry => ({
  cluster_id: 'c_none',
  node_id: 'n1',
  socket_id: 's' + Math.random().toString(36).slice(2),
  agent: 'alice',
  did: null,
  vis: 'public',
  joined_at: 1000,
  ...overrides,
})

/** The behaviour every ClusterStore must show; each adapter's test file calls this. */
export function clusterStoreContract(name: string, open: () => Promise<{store: ClusterStore; close(): Promise<void>}>) {
  describe(`ClusterStore contract: ${name}`, () => {
    const withStore = (fn: (store: ClusterStore) => Promise<void>) => async () => {
      const {store, close} = await open()
      try {
        await fn(store)
      } finally {
        await close()
      }
    }

    it('creates and reads a cluster without its credentials', withStore(async (store) => {
      const row = newCluster({name: 'Paris', slug: 'paris', visibility: 'public', topic: '#paris', description: 'd', props: {where: {lat: 48.8, lon: 2.3, label: 'Paris'}, lang: 'fr', age_min: 16}, persist: true})
      await store.createCluster(row)
      const got = await store.getCluster(row.cluster_id)
      const {token_hash: _t, admin_token_hash: _a, ...record} = row
      expect(got).toEqual(record)
      expect(await store.getCredentials(row.cluster_id)).toEqual({token_hash: row.token_hash, admin_token_hash: row.admin_token_hash})
      expect(await store.getCluster('c_unknown')).toBeNull()
      expect(await store.getCredentials('c_unknown')).toBeNull()
    }))

    it('keeps slugs unique among public clusters only and finds public slugs', withStore(async (store) => {
      const first = newCluster({slug: 'cafe', visibility: 'public'})
      await store.createCluster(first)
      await expect(store.createCluster(newCluster({slug: 'cafe', visibility: 'public'}))).rejects.toMatchObject({code: 'slug_taken', kind: 'conflict'})
      const priv = newCluster({slug: 'cafe', visibility: 'private'})
      await store.createCluster(priv)
      await store.createCluster(newCluster({slug: null, visibility: 'public'}))
      await store.createCluster(newCluster({slug: null, visibility: 'public'}))
      expect((await store.getPublicClusterBySlug('cafe'))?.cluster_id).toBe(first.cluster_id)
      await store.deleteCluster(first.cluster_id)
      expect(await store.getPublicClusterBySlug('cafe')).toBeNull()
      await store.createCluster(newCluster({slug: 'cafe', visibility: 'public'}))
    }))

    it('lists public clusters newest first with a total', withStore(async (store) => {
      const a = newCluster({visibility: 'public', created_at: '2024-01-01T00:00:00.000Z'})
      const b = newCluster({visibility: 'public', created_at: '2024-01-02T00:00:00.000Z'})
      const c = newCluster({visibility: 'public', created_at: '2024-01-03T00:00:00.000Z'})
      await store.createCluster(newCluster({visibility: 'private'}))
      for (const row of [a, b, c]) await store.createCluster(row)
      const page = await store.listPublicClusters({limit: 2, offset: 0})
      expect(page.total).toBe(3)
      expect(page.clusters.map((x) => x.cluster_id)).toEqual([c.cluster_id, b.cluster_id])
      const next = await store.listPublicClusters({limit: 2, offset: 2})
      expect(next.clusters.map((x) => x.cluster_id)).toEqual([a.cluster_id])
    }))

    it('patches props, persist, topic and description', withStore(async (store) => {
      const row = newCluster({topic: 't', props: {lang: 'en'}})
      await store.createCluster(row)
      const patched = await store.updateCluster(row.cluster_id, {props: {age_min: 18}, persist: true, description: 'new'})
      expect(patched).toMatchObject({props: {age_min: 18}, persist: true, topic: 't', description: 'new'})
      expect(await store.getCluster(row.cluster_id)).toEqual(patched)
      expect(await store.updateCluster(row.cluster_id, {topic: null})).toMatchObject({topic: null})
      expect(await store.updateCluster('c_unknown', {persist: true})).toBeNull()
    }))

    it('deletes a cluster and its presence', withStore(async (store) => {
      const row = newCluster()
      await store.createCluster(row)
      await store.touchNode('n1', 1000)
      await store.addPresence(presence({cluster_id: row.cluster_id}))
      expect(await store.deleteCluster(row.cluster_id)).toBe(true)
      expect(await store.deleteCluster(row.cluster_id)).toBe(false)
      expect(await store.getCluster(row.cluster_id)).toBeNull()
      expect(await store.listPresence(row.cluster_id, 0)).toEqual([])
    }))

    it('counts creations per IP in a window and prunes old ones', withStore(async (store) => {
      await store.recordCreation('ip1', 1000, 0)
      await store.recordCreation('ip1', 2000, 0)
      await store.recordCreation('ip2', 2500, 0)
      expect(await store.countCreations('ip1', 0)).toEqual({count: 2, oldest: 1000})
      expect(await store.countCreations('ip1', 1500)).toEqual({count: 1, oldest: 2000})
      expect(await store.countCreations('ip3', 0)).toEqual({count: 0, oldest: null})
      await store.recordCreation('ip1', 5000, 2200)
      expect(await store.countCreations('ip1', 0)).toEqual({count: 1, oldest: 5000})
    }))

    it('lists presence of live nodes only, oldest first', withStore(async (store) => {
      await store.touchNode('n1', 10_000)
      await store.touchNode('n2', 5_000)
      const a = presence({cluster_id: 'c_p', node_id: 'n1', socket_id: 'a', agent: 'alice', did: 'did:key:z1', joined_at: 2})
      const b = presence({cluster_id: 'c_p', node_id: 'n1', socket_id: 'b', agent: 'bob', vis: 'ghost', joined_at: 1})
      const c = presence({cluster_id: 'c_p', node_id: 'n2', socket_id: 'c', agent: 'carol', vis: 'private', joined_at: 3})
      const other = presence({cluster_id: 'c_q', node_id: 'n1', socket_id: 'd'})
      for (const e of [a, b, c, other]) await store.addPresence(e)
      expect(await store.listPresence('c_p', 0)).toEqual([b, a, c])
      expect(await store.listPresence('c_p', 8_000)).toEqual([b, a])
      expect((await store.listLiveNodes(8_000)).sort()).toEqual(['n1'])
      await store.removePresence('n1', 'a')
      expect(await store.listPresence('c_p', 0)).toEqual([b, c])
    }))

    it('lists every node with its last heartbeat, live or not', withStore(async (store) => {
      expect(await store.listNodes()).toEqual([])
      await store.touchNode('n2', 5_000)
      await store.touchNode('n1', 10_000)
      await store.touchNode('n1', 12_000)
      expect((await store.listNodes()).sort((a, b) => a.node_id.localeCompare(b.node_id))).toEqual([
        {node_id: 'n1', seen_at: 12_000},
        {node_id: 'n2', seen_at: 5_000},
      ])
      await store.removeNode('n2')
      expect(await store.listNodes()).toEqual([{node_id: 'n1', seen_at: 12_000}])
    }))

    it('counts distinct visible handles per cluster', withStore(async (store) => {
      await store.touchNode('n1', 100)
      await store.touchNode('n2', 100)
      for (const e of [
        presence({cluster_id: 'c_1', node_id: 'n1', socket_id: '1', agent: 'alice'}),
        presence({cluster_id: 'c_1', node_id: 'n2', socket_id: '2', agent: 'alice'}),
        presence({cluster_id: 'c_1', node_id: 'n1', socket_id: '3', agent: 'bob', vis: 'private'}),
        presence({cluster_id: 'c_1', node_id: 'n1', socket_id: '4', agent: 'ghosty', vis: 'ghost'}),
        presence({cluster_id: 'c_2', node_id: 'n1', socket_id: '5', agent: 'ghosty', vis: 'ghost'}),
      ]) await store.addPresence(e)
      const counts = await store.onlineCounts(['c_1', 'c_2', 'c_3'], 0)
      expect(Object.fromEntries(counts)).toEqual({c_1: 2, c_2: 0, c_3: 0})
      expect((await store.onlineCounts([], 0)).size).toBe(0)
    }))

    it('removes a node with its presence, and sweeps stale nodes', withStore(async (store) => {
      await store.touchNode('n1', 100)
      await store.touchNode('n2', 100)
      await store.addPresence(presence({cluster_id: 'c_1', node_id: 'n1', socket_id: '1'}))
      await store.addPresence(presence({cluster_id: 'c_1', node_id: 'n2', socket_id: '2'}))
      await store.removeNode('n1')
      expect((await store.listPresence('c_1', 0)).map((e) => e.socket_id)).toEqual(['2'])
      await store.touchNode('n3', 500)
      await store.addPresence(presence({cluster_id: 'c_2', node_id: 'n2', socket_id: '3'}))
      // The sweep answers what it removed: n2 with its two sockets (n1 already left cleanly).
      expect(await store.sweepNodes(200)).toEqual([{node_id: 'n2', members: 2}])
      expect(await store.sweepNodes(200)).toEqual([])
      expect(await store.listLiveNodes(0)).toEqual(['n3'])
      await store.touchNode('n2', 600)
      expect(await store.listPresence('c_1', 0)).toEqual([])
    }))

    it('tells a beating node whether its row was there (false first, and after a sweep or a removal)', withStore(async (store) => {
      expect(await store.touchNode('n1', 100)).toBe(false)
      expect(await store.touchNode('n1', 200)).toBe(true)
      expect(await store.sweepNodes(300)).toEqual([{node_id: 'n1', members: 0}])
      expect(await store.touchNode('n1', 400)).toBe(false)
      expect(await store.touchNode('n1', 500)).toBe(true)
      await store.removeNode('n1')
      expect(await store.touchNode('n1', 600)).toBe(false)
      expect(await store.listNodes()).toEqual([{node_id: 'n1', seen_at: 600}])
    }))
  })
}
