/**
 * Two relay nodes in one process on one PostgreSQL schema and the real NATS
 * server: each /health lists the other as a peer; when one stops beating,
 * the other logs the silence and the sweep (with its members) once, and its
 * /health drops it; when it beats again, it is logged back. Clocks are
 * injected and heartbeats run on demand: nothing waits for the timers.
 */
import {afterAll, beforeAll, expect, it} from 'vitest'
import {createNatsBus} from '../../src/bus/nats.js'
import {NODE_STALE_MS} from '../../src/cluster/constants.js'
import {createPostgresClusterStore} from '../../src/cluster/store/postgres.js'
import {openPostgres, type PgPool} from '../../src/store/postgres.js'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {captureLogger} from '../support/log-capture.js'
import {api, createCluster, join, startRelay, type Client, type TestRelay} from './helpers.js'

const schema = uniqueSchema('relayhealth')
const prefix = uniqueNatsPrefix()
const T0 = Date.now()
const pools: PgPool[] = []
const clients: Client[] = []
const nodes: Array<TestRelay & {log: ReturnType<typeof captureLogger>; clock: {now: number}}> = []

async function startNode() {
  const pool = await openPostgres({url: PG_URL, schema})
  pools.push(pool)
  const clock = {now: T0}
  const log = captureLogger()
  const relay = await startRelay({store: await createPostgresClusterStore(pool), bus: await createNatsBus({url: NATS_URL, prefix}), clock: () => clock.now, logger: log.logger})
  nodes.push({...relay, log, clock})
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

const health = async (node: TestRelay) => (await api(node.url, 'GET', '/health')).body

it('lists the other node as a live peer, with the bus state', async () => {
  const [a, b] = nodes
  // Each node sees the rows written before its own beat: B, then A (which now sees B), then B (which sees A).
  // The beats the nodes start with are not awaited by startRelay, so they cannot be relied on here.
  await b.relay.heartbeat()
  await a.relay.heartbeat()
  await b.relay.heartbeat()
  expect(await health(a)).toEqual({
    ok: true,
    service: 'relay',
    node_id: a.bus.nodeId,
    peers: [{node_id: b.bus.nodeId, last_seen: new Date(T0).toISOString(), live: true}],
    checked_at: new Date(T0).toISOString(),
    bus: {kind: 'nats', connected: true, reconnects: 0, since: expect.any(String)},
  })
  expect((await health(b)).peers).toEqual([{node_id: a.bus.nodeId, last_seen: new Date(T0).toISOString(), live: true}])
  expect(a.log.about(b.bus.nodeId)).toEqual(['info peer node up'])
  expect((await api(a.url, 'POST', '/health')).status).toBe(405)
})

it('logs a silent peer and its sweep once, drops it from /health and rosters, and logs it back', async () => {
  const [a, b] = nodes
  const {cluster_id} = await createCluster(a.url, {visibility: 'public'})
  const alice = await join(a.url, cluster_id, {agent: 'alice'})
  const bob = await join(b.url, cluster_id, {agent: 'bob'})
  clients.push(alice, bob)
  await alice.next((f) => f.type === 'presence' && f.agent === 'bob')

  // B stops beating (its clock stands still); A's time passes the stale window.
  a.clock.now = T0 + NODE_STALE_MS + 1000
  await a.relay.heartbeat()
  await a.relay.heartbeat()
  expect(a.log.about(b.bus.nodeId)).toEqual(['info peer node up', 'info peer node silent', 'info peer node swept'])
  const [silent, swept] = a.log.lines.filter((line) => line.fields.node_id === b.bus.nodeId).slice(1)
  expect(silent.fields).toEqual({area: 'relay', node_id: b.bus.nodeId, last_seen: new Date(T0).toISOString(), silent_ms: NODE_STALE_MS + 1000})
  expect(swept.fields).toEqual({area: 'relay', node_id: b.bus.nodeId, members: 1})
  // B's own 10 s timer may write its row back meanwhile (its clock stands still): listed, but not live.
  expect((await health(a)).peers.filter((peer: {live: boolean}) => peer.live)).toEqual([])
  expect(await alice.next((f) => f.type === 'presence' && f.status === 'offline')).toMatchObject({agent: 'bob'})

  // B beats again: A logs it back and lists it live.
  b.clock.now = a.clock.now
  await b.relay.heartbeat()
  await a.relay.heartbeat()
  expect(a.log.about(b.bus.nodeId)).toEqual(['info peer node up', 'info peer node silent', 'info peer node swept', 'info peer node back'])
  expect((await health(a)).peers).toEqual([{node_id: b.bus.nodeId, last_seen: new Date(a.clock.now).toISOString(), live: true}])
  // B saw A live all along: nothing logged about A after it came up.
  expect(b.log.about(a.bus.nodeId)).toEqual(['info peer node up'])
})
