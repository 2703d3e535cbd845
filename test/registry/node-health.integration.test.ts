/**
 * Two registry nodes (each serving the relay too, as `mesh serve registry`
 * does) on one PostgreSQL schema and the real NATS server. One /health per
 * node carries the registry's peers and, under `relay`, the relay's. When
 * node B stops beating, node A logs it silent, then swept with its agents,
 * once each. Clocks are injected and heartbeats run on demand.
 */
import {afterAll, beforeAll, expect, it} from 'vitest'
import WebSocket from 'ws'
import type {RelayService} from '../../src/cluster/types.js'
import {NODE_STALE_MS as RELAY_STALE_MS} from '../../src/cluster/constants.js'
import {NODE_STALE_MS} from '../../src/registry/messaging/constants.js'
import {captureLogger} from '../support/log-capture.js'
import {registryNodes, type RegistryNode, type RegistryNodes} from '../support/registry-nodes.js'

const T0 = Date.now()
let cluster: RegistryNodes
const nodes: Array<{node: RegistryNode; clock: {now: number}; log: ReturnType<typeof captureLogger>}> = []
const sockets: WebSocket[] = []

beforeAll(async () => {
  cluster = await registryNodes('reghealth')
  for (const name of ['a', 'b']) {
    const clock = {now: T0}
    const log = captureLogger()
    nodes.push({node: await cluster.start(name, {clock: () => clock.now, logger: log.logger}), clock, log})
  }
})
afterAll(async () => {
  for (const ws of sockets) ws.terminate()
  await cluster.close()
})

const relayOf = (node: RegistryNode) => node.server.services.find((service) => service.name === 'relay') as RelayService
const idOf = (node: RegistryNode) => node.server.registry.context.bus.nodeId
const health = async (node: RegistryNode): Promise<any> => (await fetch(`${node.hosted.url}/health`)).json()
const beat = async (node: RegistryNode) => {
  await node.server.registry.heartbeat()
  await relayOf(node).heartbeat()
}
/** `level message` of node `log`'s info lines about `peer` in one area (`messaging` or `relay`). */
const logged = (log: ReturnType<typeof captureLogger>, peer: string, area: string) =>
  log.lines.filter((line) => line.level !== 'debug' && line.fields.node_id === peer && line.fields.area === area).map((line) => `${line.level} ${line.message}`)
// B's own timers still run with its frozen clock: a beat of B after the sweep writes its row back, stale.
const live = (peers: Array<{live: boolean}>) => peers.filter((peer) => peer.live)

it('lists the other node in the registry and relay views of one /health, with the bus state', async () => {
  const [a, b] = nodes
  // B, then A (which now sees B), then B (which sees A): the nodes' start beats are not awaited by their start.
  await beat(b.node)
  await beat(a.node)
  await beat(b.node)
  const seen = {node_id: idOf(b.node), last_seen: new Date(T0).toISOString(), live: true}
  expect(await health(a.node)).toEqual({
    ok: true,
    service: 'registry',
    node_id: idOf(a.node),
    bus: {kind: 'nats', connected: true, reconnects: 0, since: expect.any(String)},
    peers: [seen],
    checked_at: new Date(T0).toISOString(),
    relay: {node_id: idOf(a.node), peers: [seen], checked_at: new Date(T0).toISOString()},
  })
  expect((await health(b.node)).peers).toEqual([{node_id: idOf(a.node), last_seen: new Date(T0).toISOString(), live: true}])
  expect(logged(a.log, idOf(b.node), 'messaging')).toEqual(['info peer node up'])
  expect(logged(a.log, idOf(b.node), 'relay')).toEqual(['info peer node up'])
})

it('logs a node that stops beating as silent, then swept with its agents, once each, and /health follows', async () => {
  const [a, b] = nodes
  // An agent with a live socket on B: B holds one presence row.
  const registered = (await (await fetch(`${b.node.hosted.url}/v1/agents/register`, {method: 'POST', headers: {'content-type': 'application/json'}, body: '{"agent_id":"on-b"}'})).json()) as {token: string}
  const ws = new WebSocket(`${b.node.hosted.url.replace('http', 'ws')}/v1/agents/ws?token=${registered.token}`)
  sockets.push(ws)
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => JSON.parse(String(data)).type === 'welcome' && resolve())
    ws.once('error', reject)
  })
  const peerB = idOf(b.node)

  // B's clock stands still; A passes the messaging stale window: silent, not yet swept.
  a.clock.now = T0 + NODE_STALE_MS + 1000
  await a.node.server.registry.heartbeat()
  await a.node.server.registry.heartbeat()
  expect(logged(a.log, peerB, 'messaging')).toEqual(['info peer node up', 'info peer node silent'])
  expect((await health(a.node)).peers).toEqual([{node_id: peerB, last_seen: new Date(T0).toISOString(), live: false}])

  // Four stale windows: swept with its one agent. The relay's window has passed too.
  a.clock.now = T0 + 4 * NODE_STALE_MS + 1000
  expect(a.clock.now - T0).toBeGreaterThan(RELAY_STALE_MS)
  await beat(a.node)
  await beat(a.node)
  expect(logged(a.log, peerB, 'messaging')).toEqual(['info peer node up', 'info peer node silent', 'info peer node swept'])
  expect(a.log.lines.find((line) => line.message === 'peer node swept' && line.fields.area === 'messaging')?.fields).toEqual({area: 'messaging', node_id: peerB, members: 1})
  expect(logged(a.log, peerB, 'relay')).toEqual(['info peer node up', 'info peer node silent', 'info peer node swept'])
  const after = await health(a.node)
  expect(live(after.peers)).toEqual([])
  expect(live(after.relay.peers)).toEqual([])
  // Only A swept: B logged nothing new about A.
  expect(logged(b.log, idOf(a.node), 'messaging')).toEqual(['info peer node up'])
})
