/**
 * Two registry nodes on one PostgreSQL schema and one NATS server, as
 * `mesh serve registry --database-url … --nats …` runs them on two hosts:
 * shared secrets and agents, nonces refused across nodes, events and agent
 * messages carried between nodes. In process (test/support/registry-nodes.ts),
 * then once with two real processes of the built binary (npm test builds first).
 * (Peer health and sweeping: node-health.integration.test.ts.)
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import type {RegistryEvent} from '../../src/registry/types.js'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {startServer, type RunningServer} from '../support/cli.js'
import {registryNodes, type RegistryNodes} from '../support/registry-nodes.js'
import {agentWsUrl, call, registerAgent} from '../support/registry-http.js'
import {FrameClient} from './messaging/harness.js'

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body})

describe('two registry nodes (in process)', () => {
  let cluster: RegistryNodes
  let a: string
  let b: string
  const tokens: Record<string, string> = {}
  const clients: FrameClient[] = []

  beforeAll(async () => {
    cluster = await registryNodes('regnodes')
    a = (await cluster.start('a')).hosted.url
    b = (await cluster.start('b')).hosted.url
    for (const [agentId, node] of [['xavier', a], ['yolanda', b], ['zed', b]] as const) tokens[agentId] = (await registerAgent(node, agentId)).token
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await cluster.close()
  })

  it('share the JWT secret and admin key through the database', async () => {
    const [nodeA, nodeB] = cluster.nodes
    expect(nodeA.server.adminKey).toBe(nodeB.server.adminKey)
    expect((await readFile(join(cluster.root, 'b', 'registry-admin.key'), 'utf8')).trim()).toBe(nodeA.server.adminKey)
    const registered = (await (await post(`${a}/v1/agents/register`, JSON.stringify({agent_id: 'shared1'}))).json()) as {token: string; api_key: string}
    const patched = await fetch(`${b}/v1/agents/me`, {method: 'PATCH', headers: {authorization: `Bearer ${registered.token}`, 'content-type': 'application/json'}, body: '{"description":"via b"}'})
    expect(patched.status).toBe(200)
    const token = await post(`${b}/v1/agents/token`, JSON.stringify({agent_id: 'shared1', api_key: registered.api_key}))
    expect(token.status).toBe(200)
  })

  it('refuses on node B a Mesh-Sig nonce already used on node A', async () => {
    const keys = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'signed-x', pubkey: keys.publicKey})
    // Both nodes are one registry (one public URL): a v2 signature for it is good on either, once.
    const sig = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem, audience: 'https://registry.example'})
    expect((await post(`${a}/v1/agents/register`, body, {'mesh-sig': sig})).status).toBe(201)
    const replay = await post(`${b}/v1/agents/register`, body, {'mesh-sig': sig})
    expect(replay.status).toBe(401)
    expect(((await replay.json()) as {error: {code: string}}).error.code).toBe('nonce_reused')
  })

  it('delivers registry events to every node over NATS', async () => {
    const nodeB = cluster.nodes[1]
    const seenOnB = new Promise<RegistryEvent>((resolve) => nodeB.server.registry.context.events.subscribe((e) => e.agent_id === 'evented' && resolve(e)))
    await post(`${a}/v1/agents/register`, JSON.stringify({agent_id: 'evented'}))
    expect(await seenOnB).toMatchObject({type: 'agent.registered', agent_id: 'evented'})
  })

  it('sees liveness from either node', async () => {
    expect((await call(`${a}/v1/agents/yolanda`)).body.online).toBe(true)
    expect((await call(`${b}/v1/agents/xavier`)).body.online).toBe(true)
  })

  it('carries a WebSocket message from an agent on A to an agent on B, once', async () => {
    const x = await FrameClient.connect(agentWsUrl(a, tokens.xavier!))
    const y = await FrameClient.connect(agentWsUrl(b, tokens.yolanda!))
    clients.push(x, y)
    x.send({msg_type: 'message', to: 'yolanda', payload: {hello: 'from A'}, ref: 1})
    const delivered = await x.next()
    expect(delivered).toEqual({type: 'delivered', to: 'yolanda', id: expect.any(Number), sockets: 1, ref: 1})
    expect(await y.next()).toEqual({type: 'message', id: delivered.id, from: 'xavier', payload: {hello: 'from A'}, ts: expect.any(String)})
    // a round trip on the same path: had the first message been duplicated it would arrive before this pong
    y.send({msg_type: 'message', to: 'xavier', payload: 'back from B'})
    expect((await x.next('message')).payload).toBe('back from B')
    y.send({msg_type: 'ping'})
    expect(await y.next()).toMatchObject({type: 'delivered', to: 'xavier'})
    expect(await y.next()).toEqual({type: 'pong'})
    expect(y.frames).toEqual([])
  })

  it('queues for an agent connected nowhere, and the read on B sends the receipt live to A', async () => {
    const x = clients[0]!
    x.send({msg_type: 'message', to: 'zed', payload: 'when you are back'})
    const queued = await x.next()
    expect(queued).toMatchObject({type: 'queued', to: 'zed', via: 'inbox'})
    const read = await call(`${b}/v1/agents/messages`, {token: tokens.zed})
    expect(read.body.messages).toEqual([{id: queued.id, from: 'xavier', payload: 'when you are back', ts: expect.any(String)}])
    expect(await x.next('receipt')).toMatchObject({type: 'receipt', message_ids: [queued.id], read_by: 'zed', via: 'read'})
  })

  it('stops routing to a node once the agent left it', async () => {
    const [x, y] = clients
    await y!.close()
    x!.send({msg_type: 'message', to: 'yolanda', payload: 'after leaving'})
    expect(await x!.next()).toMatchObject({type: 'queued', to: 'yolanda'})
    expect((await call(`${a}/v1/agents/messages`, {token: tokens.yolanda})).body.messages.map((m: {payload: unknown}) => m.payload)).toEqual(['after leaving'])
  })
})

describe('two `mesh serve registry` processes (the built binary)', () => {
  const schema = uniqueSchema('mn2')
  const prefix = uniqueNatsPrefix()
  const dirs = [mkdtempSync(join(tmpdir(), 'mesh-node-a-')), mkdtempSync(join(tmpdir(), 'mesh-node-b-'))]
  let a: RunningServer
  let b: RunningServer
  const tokens: Record<string, string> = {}
  const clients: FrameClient[] = []

  beforeAll(async () => {
    const shared = ['--json', '--database-url', PG_URL, '--database-schema', schema, '--nats', NATS_URL, '--nats-prefix', prefix]
    // Sequential starts would work too; at once proves the advisory-locked migrations.
    ;[a, b] = await Promise.all(dirs.map((dir) => startServer('registry', ['--data', dir, ...shared])))
    tokens.xavier = (await registerAgent(a.url, 'xavier')).token
    tokens.yolanda = (await registerAgent(b.url, 'yolanda')).token
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await Promise.all([a?.stop(), b?.stop()])
    await dropSchema(schema)
    for (const dir of dirs) rmSync(dir, {recursive: true, force: true})
  })

  it('accepts on each node the tokens minted by the other, and shows liveness on both', async () => {
    expect((await call(`${a.url}/v1/agents/yolanda`)).body.online).toBe(true)
    expect((await call(`${b.url}/v1/agents/xavier`)).body.online).toBe(true)
    const viaOther = await call(`${b.url}/v1/agents/messages`, {token: tokens.xavier})
    expect(viaOther.status).toBe(200)
  })

  it('keeps an inbox message posted on A for a read on B, and sends the receipt to the sender on A', async () => {
    const x = await FrameClient.connect(agentWsUrl(a.url, tokens.xavier!))
    clients.push(x)
    const sent = await call(`${a.url}/agents/messages`, {token: tokens.xavier, body: {to: 'yolanda', payload: 'stored'}})
    expect(sent.body).toEqual({ok: true, message_id: expect.any(Number)})
    const read = await call(`${b.url}/agents/messages`, {token: tokens.yolanda})
    expect(read.body.messages).toEqual([{id: sent.body.message_id, from: 'xavier', payload: 'stored', ts: expect.any(String)}])
    // X is connected to A: the read on B sends the receipt to X's socket
    expect(await x.next('receipt')).toMatchObject({message_ids: [sent.body.message_id], read_by: 'yolanda', via: 'read'})
  })
})
