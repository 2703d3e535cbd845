/**
 * Two relay nodes in one process over a shared in-memory store and an
 * in-process bus (each node with its own id): a node subscribes to a
 * cluster's subject only while it has a local member there.
 */
import {randomUUID} from 'node:crypto'
import {afterEach, expect, it} from 'vitest'
import {createLocalBus, type Bus} from '../../src/bus/bus.js'
import {createMemoryClusterStore} from '../../src/cluster/store/store.js'
import {createCluster, join, startRelay, type Client, type TestRelay} from './helpers.js'

/** A node's view of a shared bus: its own node id, and a record of its live subscriptions. */
function nodeBus(shared: Bus) {
  const live = new Map<string, number>()
  const bus: Bus = {
    nodeId: randomUUID(),
    publish: (subject, data) => shared.publish(subject, data),
    subscribe(subject, handler) {
      live.set(subject, (live.get(subject) ?? 0) + 1)
      const off = shared.subscribe(subject, handler)
      return () => {
        live.set(subject, live.get(subject)! - 1)
        if (live.get(subject) === 0) live.delete(subject)
        off()
      }
    },
    flush: () => shared.flush(),
    status: () => shared.status(),
    close: async () => {},
  }
  return {bus, live}
}

const relays: TestRelay[] = []
const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  for (const r of relays.splice(0)) await r.stop()
})

it('subscribes a node to a cluster only while it has a local member', async () => {
  const shared = createLocalBus()
  const store = createMemoryClusterStore()
  const nodeA = nodeBus(shared)
  const nodeB = nodeBus(shared)
  const a = await startRelay({store, bus: nodeA.bus})
  const b = await startRelay({store, bus: nodeB.bus})
  relays.push(a, b)
  const {cluster_id} = await createCluster(a.url, {visibility: 'public'})
  const subject = `cluster.${cluster_id}`

  const alice = await join(a.url, cluster_id, {agent: 'alice'})
  clients.push(alice)
  expect([...nodeA.live.keys()]).toEqual([subject])
  expect(nodeB.live.size).toBe(0)

  alice.send('nobody on B hears this')
  await alice.next((f) => f.type === 'ack')

  const bob = await join(b.url, cluster_id, {agent: 'bob'})
  clients.push(bob)
  expect([...nodeB.live.keys()]).toEqual([subject])
  expect(bob.frames[0]).toMatchObject({online: ['alice', 'bob']})
  alice.send('now B hears')
  expect(await bob.next((f) => f.type === 'message')).toMatchObject({payload: 'now B hears'})

  await bob.close()
  await alice.next((f) => f.type === 'presence' && f.status === 'offline')
  expect(nodeB.live.size).toBe(0)
  await alice.close()
  await expect.poll(() => nodeA.live.size).toBe(0)
})
