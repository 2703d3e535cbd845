/**
 * Two real `mesh serve relay` processes on one PostgreSQL schema and the
 * real NATS server (own subject prefix): presence, broadcasts and deletion
 * cross nodes. Needs a fresh build (`npm test` builds first).
 */
import {afterAll, beforeAll, expect, it} from 'vitest'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {startServer, type RunningServer} from '../support/cli.js'
import {api, createCluster, join, type Client} from './helpers.js'

const schema = uniqueSchema('relay')
const prefix = uniqueNatsPrefix()
const nodes: RunningServer[] = []
const clients: Client[] = []

async function startNode(): Promise<RunningServer> {
  const node = await startServer('relay', ['--json', '--database-url', PG_URL, '--database-schema', schema, '--nats', NATS_URL, '--nats-prefix', prefix])
  nodes.push(node)
  return node
}

beforeAll(async () => {
  await Promise.all([startNode(), startNode()])
})

afterAll(async () => {
  for (const c of clients) c.ws.terminate()
  for (const {child} of nodes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await dropSchema(schema)
})

it('shares presence, relays each broadcast once across nodes, and closes remote sockets on delete', async () => {
  const [a, b] = nodes
  const {cluster_id, token, admin_token} = await createCluster(a.url, {name: 'Two Nodes', visibility: 'public'})

  const alice = await join(a.url, cluster_id, {agent: 'alice'})
  const bob = await join(b.url, cluster_id, {agent: 'bob', token})
  clients.push(alice, bob)
  // ready.online lists members of every node.
  expect(bob.frames[0]).toEqual({type: 'ready', you: 'bob', you_did: null, public: true, owner: true, online: ['alice', 'bob']})
  expect(await alice.next((f) => f.type === 'presence')).toEqual({type: 'presence', agent: 'bob', did: null, status: 'online'})

  // A ghost on node B is invisible to node A, but reads.
  const ghost = await join(b.url, cluster_id, {agent: 'casper', vis: 'ghost'})
  clients.push(ghost)
  expect(ghost.frames[0]).toMatchObject({online: ['alice', 'bob']})

  // A broadcast from A reaches B exactly once; the ack counts visible sockets on both nodes.
  alice.send('one')
  alice.send('two')
  expect(await alice.next((f) => f.type === 'ack' && alice.ofType('ack').length === 2)).toEqual({type: 'ack', to: null, delivered: 1})
  await bob.next((f) => f.payload === 'two')
  await ghost.next((f) => f.payload === 'two')
  expect(bob.ofType('message').map((f) => f.payload)).toEqual(['one', 'two'])
  expect(ghost.ofType('message').map((f) => f.payload)).toEqual(['one', 'two'])

  // Direct messages cross nodes too, and delivered counts remote sockets.
  bob.send({to: 'alice', payload: 'hi alice'})
  expect(await alice.next((f) => f.type === 'message' && f.to === 'alice')).toMatchObject({from: 'bob', payload: 'hi alice'})
  expect(await bob.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: 'alice', delivered: 1})

  // Catalog counts on either node see both nodes, without the ghost.
  expect((await api(b.url, 'GET', '/v1/clusters')).body.clusters[0]).toMatchObject({id: cluster_id, online: 2})

  // Delete on A: the sockets on B get closed {reason: deleted}.
  const deleted = await api(a.url, 'DELETE', `/v1/clusters/${cluster_id}`, undefined, {'x-cluster-token': admin_token})
  expect(deleted.body).toEqual({ok: true, cluster_id})
  for (const client of [alice, bob, ghost]) {
    await client.closed()
    expect(client.frames.at(-1)).toEqual({type: 'closed', reason: 'deleted'})
  }
})

it('announces the members of a stopping node as offline and cleans its presence', async () => {
  const [a] = nodes
  const c = await startNode()
  const {cluster_id} = await createCluster(a.url, {name: 'Leaving', visibility: 'public'})
  const alice = await join(a.url, cluster_id, {agent: 'alice'})
  const dan = await join(c.url, cluster_id, {agent: 'dan'})
  clients.push(alice, dan)
  await alice.next((f) => f.type === 'presence' && f.status === 'online')
  expect(await c.stop()).toBe(0)
  expect(dan.frames.at(-1)).toEqual({type: 'closed', reason: 'server_shutdown'})
  expect(await alice.next((f) => f.type === 'presence' && f.status === 'offline')).toEqual({type: 'presence', agent: 'dan', did: null, status: 'offline'})
  expect((await api(a.url, 'GET', `/v1/clusters/${cluster_id}`)).body.cluster).toMatchObject({online: 1, members: [{agent: 'alice', did: null}]})
})
