/**
 * The node heartbeat both the relay and messaging run, over the in-memory
 * node table with an injected clock: peers logged and swept, this node's
 * presence written again and announced when peers swept it, not while its
 * clock is behind theirs, and never after it stopped.
 */
import {describe, expect, it} from 'vitest'
import {createNodeHeartbeat, type NodeHeartbeatOptions} from '../../src/bus/node-heartbeat.js'
import {createMemoryNodeTable, type NodeTable} from '../../src/store/nodes/table.js'
import {captureLogger} from '../support/log-capture.js'

const STALE = 1000
const SWEEP = 4000

function world(extra: Partial<NodeHeartbeatOptions> = {}) {
  const rows = new Set<string>()
  const memory = createMemoryNodeTable({
    count: (nodeId) => [...rows].filter((row) => row.startsWith(`${nodeId}:`)).length,
    drop: (nodeId) => {
      for (const row of rows) if (row.startsWith(`${nodeId}:`)) rows.delete(row)
    },
  })
  const table: NodeTable & {hideSelf?: boolean} = {
    ...memory,
    // A peer's sweep landing right after this node's touch: the live list no longer holds it.
    listLiveNodes: async (since) => (await memory.listLiveNodes(since)).filter((id) => !(table.hideSelf && id === 'me')),
  }
  const clock = {now: 10_000}
  const log = captureLogger()
  const calls = {rewrites: 0, announced: 0, live: [] as string[][]}
  /** This node's members: the presence rows it writes. */
  const members = ['x', 'y']
  const beat = createNodeHeartbeat({
    nodeId: 'me',
    table,
    clock: () => clock.now,
    logger: log.logger,
    area: 'relay',
    intervalMs: 60_000,
    staleMs: STALE,
    sweepAfterMs: SWEEP,
    async rewrite() {
      calls.rewrites++
      for (const member of members) rows.add(`me:${member}`)
      return () => {
        calls.announced++
        return members.length
      }
    },
    afterSweep: (live) => void calls.live.push([...live].sort()),
    ...extra,
  })
  const lines = () => log.lines.filter((line) => line.level !== 'debug').map((line) => `${line.level} ${line.message} ${line.fields.node_id}`)
  return {beat, table, rows, clock, calls, lines, log}
}

describe('node heartbeat', () => {
  it('writes its row, logs a peer up, silent after the stale window, swept with its presence after the sweep window', async () => {
    const w = world()
    await w.beat.start()
    await w.beat.stop()
    expect(await w.table.listNodes()).toEqual([{node_id: 'me', seen_at: 10_000}])
    await w.table.touchNode('peer', 10_000)
    w.rows.add('peer:a')
    await w.beat.beat()
    expect(w.beat.peers.peers()).toEqual([{node_id: 'peer', last_seen: new Date(10_000).toISOString(), live: true}])
    w.clock.now += STALE + 1
    await w.beat.beat()
    expect(w.calls.live.at(-1)).toEqual(['me'])
    w.clock.now += SWEEP
    await w.beat.beat()
    expect(w.lines()).toEqual(['info peer node up peer', 'info peer node silent peer', 'info peer node swept peer'])
    expect(w.log.lines.find((line) => line.message === 'peer node swept')?.fields).toEqual({area: 'relay', node_id: 'peer', members: 1})
    expect([...w.rows]).toEqual([])
    // Its first write (ensure) found no row, as any new node does: that is no sweep, nothing was written again.
    expect(w.calls.rewrites).toBe(0)
  })

  it('writes its presence again when peers swept it, and announces it once its row is seen live', async () => {
    const w = world()
    await w.beat.ensure()
    await w.beat.beat()
    // A peer swept this node after a stall: its row and presence are gone.
    await w.table.removeNode('me')
    w.table.hideSelf = true
    await w.beat.beat()
    expect([w.calls.rewrites, w.calls.announced]).toEqual([1, 0])
    // Still swept: the next beat writes again, and this time its row is live.
    w.table.hideSelf = false
    await w.beat.beat()
    expect([w.calls.rewrites, w.calls.announced]).toEqual([2, 1])
    expect([...w.rows].sort()).toEqual(['me:x', 'me:y'])
    expect(w.lines()).toEqual(['info node was swept; members announced again me'])
    await w.beat.beat()
    expect([w.calls.rewrites, w.calls.announced]).toEqual([2, 1])
  })

  it('does not write its presence again while its clock is behind a peer by more than the sweep window, and says so once', async () => {
    const w = world()
    await w.beat.ensure()
    await w.table.touchNode('peer', w.clock.now + SWEEP + 500)
    await w.table.removeNode('me')
    await w.beat.beat()
    await w.beat.beat()
    expect(w.calls.rewrites).toBe(0)
    expect(w.lines().filter((line) => line.startsWith('warn'))).toEqual(['warn node clock behind peers; members not announced again me'])
    // The clock catches up: written and announced.
    w.clock.now += 1000
    await w.beat.beat()
    expect([w.calls.rewrites, w.calls.announced]).toEqual([1, 1])
  })

  it('writes nothing again once stopped, and leaves with its presence', async () => {
    const w = world()
    await w.beat.ensure()
    await w.table.touchNode('peer', w.clock.now)
    w.rows.add('me:x')
    w.rows.add('peer:a')
    await w.beat.stop()
    await w.table.removeNode('me')
    await w.beat.beat()
    expect(w.calls.rewrites).toBe(0)
    await w.beat.leave()
    expect((await w.table.listNodes()).map((n) => n.node_id)).toEqual(['peer'])
    expect([...w.rows]).toEqual(['peer:a'])
  })

  it('rejects a beat the store fails, after logging it', async () => {
    const w = world()
    w.table.touchNode = async () => {
      throw new Error('database is down')
    }
    await expect(w.beat.beat()).rejects.toThrow('database is down')
    expect(w.log.lines.find((line) => line.level === 'warn')).toMatchObject({message: 'presence heartbeat failed', fields: {area: 'relay', error: 'database is down'}})
  })
})
