import {describe, expect, it} from 'vitest'
import type {NodeTable} from '../../src/store/nodes/table.js'

/** An area's two tables, as its migrations create them (src/cluster/store/migrations.ts has the same shape). */
export const AREA_TABLES = `
  CREATE TABLE demo_nodes (node_id TEXT PRIMARY KEY, seen_at BIGINT NOT NULL);
  CREATE TABLE demo_presence (node_id TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (node_id, key));`

/** A node table over an area's two tables, and a way to write presence rows of a node into its presence table. */
export interface NodeTableFixture {
  table: NodeTable
  addPresence(nodeId: string, key: string): Promise<void>
  /** Presence rows left, as `node:key`, sorted. */
  presence(): Promise<string[]>
  close(): Promise<void>
}

/** The node liveness every area shares (relay presence, messaging sockets); each backend's test file calls this. */
export function nodeTableContract(name: string, open: () => Promise<NodeTableFixture>) {
  describe(`NodeTable contract: ${name}`, () => {
    const withTable = (fn: (f: NodeTableFixture) => Promise<void>) => async () => {
      const fixture = await open()
      try {
        await fn(fixture)
      } finally {
        await fixture.close()
      }
    }

    it('tells a beating node whether its row was there: false first, after a sweep and after a removal', withTable(async ({table}) => {
      expect(await table.touchNode('n1', 100)).toBe(false)
      expect(await table.touchNode('n1', 200)).toBe(true)
      expect(await table.sweepNodes(300)).toEqual([{node_id: 'n1', members: 0}])
      expect(await table.touchNode('n1', 400)).toBe(false)
      await table.removeNode('n1')
      expect(await table.touchNode('n1', 500)).toBe(false)
      expect(await table.listNodes()).toEqual([{node_id: 'n1', seen_at: 500}])
    }))

    it('lists every node by id with its last beat, and the live ones since a time (inclusive)', withTable(async ({table}) => {
      expect(await table.listNodes()).toEqual([])
      await table.touchNode('n2', 5_000)
      await table.touchNode('n1', 10_000)
      await table.touchNode('n1', 12_000)
      expect(await table.listNodes()).toEqual([
        {node_id: 'n1', seen_at: 12_000},
        {node_id: 'n2', seen_at: 5_000},
      ])
      expect((await table.listLiveNodes(5_000)).sort()).toEqual(['n1', 'n2'])
      expect(await table.listLiveNodes(5_001)).toEqual(['n1'])
      expect(await table.listLiveNodes(12_001)).toEqual([])
    }))

    it('removes a node with its presence rows only', withTable(async ({table, addPresence, presence}) => {
      await table.touchNode('n1', 100)
      await table.touchNode('n2', 100)
      await addPresence('n1', 'a')
      await addPresence('n1', 'b')
      await addPresence('n2', 'c')
      await table.removeNode('n1')
      expect(await presence()).toEqual(['n2:c'])
      expect(await table.listNodes()).toEqual([{node_id: 'n2', seen_at: 100}])
    }))

    it('sweeps nodes silent before a time with their presence, reporting each once with its row count', withTable(async ({table, addPresence, presence}) => {
      await table.touchNode('old', 100)
      await table.touchNode('edge', 200)
      await table.touchNode('new', 500)
      await addPresence('old', 'a')
      await addPresence('old', 'b')
      await addPresence('edge', 'c')
      await addPresence('new', 'd')
      // Two nodes sweeping at once: the stale node is reported by one of them only.
      const swept = (await Promise.all([table.sweepNodes(200), table.sweepNodes(200)])).flat()
      expect(swept).toEqual([{node_id: 'old', members: 2}])
      expect(await presence()).toEqual(['edge:c', 'new:d'])
      expect((await table.listNodes()).map((n) => n.node_id)).toEqual(['edge', 'new'])
      expect(await table.sweepNodes(200)).toEqual([])
    }))
  })
}
