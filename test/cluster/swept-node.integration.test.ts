/**
 * A relay node that stalls is swept by its peer, then comes back: it writes
 * its members' presence again and announces them, so the peer shows them
 * online once more (once), counts them and routes to them. Two nodes in one
 * process on one PostgreSQL schema and the real NATS server; clocks are
 * injected and heartbeats run on demand (the nodes' own 10 s timers do not
 * come due during these tests, and a beat of B's standing clock would only
 * hit the clock-behind guard).
 */
import {afterAll, beforeAll, expect, it} from 'vitest'
import {createNatsBus} from '../../src/bus/nats.js'
import {NODE_STALE_MS} from '../../src/cluster/constants.js'
import {createPostgresClusterStore} from '../../src/cluster/store/postgres.js'
import type {ClusterStore} from '../../src/cluster/store/store.js'
import {openPostgres, type PgPool} from '../../src/store/postgres.js'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {captureLogger} from '../support/log-capture.js'
import {api, createCluster, join, startRelay, type Client, type TestRelay} from './helpers.js'

const schema = uniqueSchema('relayswept')
const prefix = uniqueNatsPrefix()
const pools: PgPool[] = []
const clients: Client[] = []
type TestNode = TestRelay & {log: ReturnType<typeof captureLogger>; clock: {now: number}; beat: {after: (() => Promise<unknown>) | null}}
const nodes: TestNode[] = []

async function startNode(): Promise<TestNode> {
  const pool = await openPostgres({url: PG_URL, schema})
  pools.push(pool)
  const pg = await createPostgresClusterStore(pool)
  const clock = {now: Date.now()}
  const log = captureLogger()
  const beat: TestNode['beat'] = {after: null}
  // The real store; a test may run one step right after this node's heartbeat write (a peer's sweep landing there).
  const store: ClusterStore = {
    ...pg,
    async touchNode(nodeId, at) {
      const known = await pg.touchNode(nodeId, at)
      const step = beat.after
      beat.after = null
      await step?.()
      return known
    },
  }
  const relay = await startRelay({store, bus: await createNatsBus({url: NATS_URL, prefix}), clock: () => clock.now, logger: log.logger})
  nodes.push({...relay, log, clock, beat})
  return nodes.at(-1)!
}

beforeAll(async () => {
  await startNode()
  await startNode()
})
afterAll(async () => {
  for (const c of clients) c.ws.terminate()
  for (const node of nodes) {
    await node.stop()
    await node.bus.close()
  }
  for (const pool of pools) await pool.end()
  await dropSchema(schema)
})

/** The presence statuses `client` saw about `agent`, in order. */
const seen = (client: Client, agent: string) => client.frames.filter((f) => f.type === 'presence' && f.agent === agent).map((f) => f.status)
const detail = async (node: TestRelay, clusterId: string) => (await api(node.url, 'GET', `/v1/clusters/${clusterId}`)).body.cluster

/** Both clocks at A's time, both nodes beat: the deployment is steady. */
async function steady(a: TestNode, b: TestNode) {
  b.clock.now = a.clock.now
  await a.relay.heartbeat()
  await b.relay.heartbeat()
}

/** `watcher` on A and `member` on B in a new cluster, each seeing the other. */
async function pair(a: TestNode, b: TestNode, watcherName: string, memberName: string) {
  const {cluster_id} = await createCluster(a.url, {visibility: 'public'})
  const watcher = await join(a.url, cluster_id, {agent: watcherName})
  const member = await join(b.url, cluster_id, {agent: memberName})
  clients.push(watcher, member)
  await watcher.next((f) => f.type === 'presence' && f.agent === memberName)
  return {cluster_id, watcher, member}
}

/** B stops beating; A's time passes the stale window and A sweeps B: `watcher` sees `member` go offline. */
async function stallB(a: TestNode, watcher: Client, member: string) {
  a.clock.now += NODE_STALE_MS + 1000
  await a.relay.heartbeat()
  await watcher.next((f) => f.type === 'presence' && f.agent === member && f.status === 'offline')
}

/**
 * `from` broadcasts and `to` receives it: everything B published before
 * (joins included) has reached A, since NATS keeps one publisher's order.
 */
async function roundTrip(from: Client, to: Client, payload: string) {
  from.send(payload)
  await to.next((f) => f.type === 'message' && f.payload === payload)
}

it('announces the members of a swept node again when it beats: online once, counted, reachable', async () => {
  const [a, b] = nodes
  await steady(a, b)
  const {cluster_id, watcher: alice, member: bob} = await pair(a, b, 'alice', 'bob')
  expect(await detail(a, cluster_id)).toMatchObject({online: 2})

  await stallB(a, alice, 'bob')
  expect(await detail(a, cluster_id)).toMatchObject({online: 1, members: [{agent: 'alice', did: null}]})

  // B beats again: bob's row is written back and his join published; alice sees him online again.
  b.clock.now = a.clock.now
  await b.relay.heartbeat()
  await alice.next((f) => f.type === 'presence' && f.agent === 'bob' && seen(alice, 'bob').length === 3)
  // Later beats of either node neither drop him nor announce him again.
  await a.relay.heartbeat()
  await b.relay.heartbeat()
  await roundTrip(bob, alice, 'after the return')
  expect(seen(alice, 'bob')).toEqual(['online', 'offline', 'online'])
  expect(b.log.about(b.bus.nodeId)).toEqual(['info node was swept; members announced again'])
  expect(b.log.lines.find((line) => line.message === 'node was swept; members announced again')?.fields).toEqual({area: 'relay', node_id: b.bus.nodeId, members: 1})

  // A counts him and lists him, and its roster has him (a new member's ready.online).
  // Both joined at the same injected instant, so their order in the list is not defined.
  const back = await detail(a, cluster_id)
  expect(back.online).toBe(2)
  expect([...back.members].sort((x: {agent: string}, y: {agent: string}) => x.agent.localeCompare(y.agent))).toEqual([{agent: 'alice', did: null}, {agent: 'bob', did: null}])
  const carol = await join(a.url, cluster_id, {agent: 'carol'})
  clients.push(carol)
  expect(carol.frames[0].type).toBe('ready')
  expect([...(carol.frames[0].online as string[])].sort()).toEqual(['alice', 'bob', 'carol'])

  // A direct message from alice reaches bob on B, and the ack counts him.
  alice.send({to: 'bob', payload: 'welcome back'})
  expect(await bob.next((f) => f.type === 'message' && f.to === 'bob')).toMatchObject({from: 'alice', payload: 'welcome back'})
  expect(await alice.next((f) => f.type === 'ack' && f.to === 'bob')).toEqual({type: 'ack', to: 'bob', delivered: 1})
  for (const client of [alice, bob, carol]) await client.close()
})

it('announces nothing while a sweep lands between its beat and its rows, and announces on the next beat', async () => {
  const [a, b] = nodes
  await steady(a, b)
  const {cluster_id, watcher: dave, member: erin} = await pair(a, b, 'dave', 'erin')
  await stallB(a, dave, 'erin')

  // B's beat writes its row, then a sweep removes it again before B rewrites erin's row.
  b.clock.now = a.clock.now - 1
  b.beat.after = () => a.store.sweepNodes(a.clock.now)
  await b.relay.heartbeat()
  await roundTrip(erin, dave, 'during the race')
  await a.relay.heartbeat()
  expect(seen(dave, 'erin')).toEqual(['online', 'offline'])

  b.clock.now = a.clock.now
  await b.relay.heartbeat()
  await dave.next((f) => f.type === 'presence' && f.agent === 'erin' && seen(dave, 'erin').length === 3)
  await a.relay.heartbeat()
  await roundTrip(erin, dave, 'after the race')
  expect(seen(dave, 'erin')).toEqual(['online', 'offline', 'online'])
  expect(await detail(a, cluster_id)).toMatchObject({online: 2})
  for (const client of [dave, erin]) await client.close()
})

it('keeps the members of a node whose clock is far behind hidden instead of flapping, and warns once', async () => {
  const [a, b] = nodes
  await steady(a, b)
  const {cluster_id, watcher: frank, member: gina} = await pair(a, b, 'frank', 'gina')
  const logged = b.log.about(b.bus.nodeId).length
  await stallB(a, frank, 'gina')

  // B's clock stays behind A's by more than the stale window: A would sweep every row B writes.
  await b.relay.heartbeat()
  await b.relay.heartbeat()
  await roundTrip(gina, frank, 'from behind')
  expect(seen(frank, 'gina')).toEqual(['online', 'offline'])
  expect(await detail(a, cluster_id)).toMatchObject({online: 1})
  expect(b.log.about(b.bus.nodeId).slice(logged)).toEqual(['warn node clock behind peers; members not announced again'])

  // Its clock catches up: the members are announced again.
  await a.relay.heartbeat()
  b.clock.now = a.clock.now
  await b.relay.heartbeat()
  await frank.next((f) => f.type === 'presence' && f.agent === 'gina' && seen(frank, 'gina').length === 3)
  expect(seen(frank, 'gina')).toEqual(['online', 'offline', 'online'])
  expect(b.log.about(b.bus.nodeId).slice(logged)).toEqual(['warn node clock behind peers; members not announced again', 'info node was swept; members announced again'])
  for (const client of [frank, gina]) await client.close()
})
