/**
 * Two registry nodes in one process, the way `mesh serve registry` runs
 * them on two hosts: one PostgreSQL schema shared, one NATS connection each.
 * The two-process version (spawned binaries) is multinode.integration.test.ts.
 */
import {randomBytes} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Bus} from '../../src/bus/bus.js'
import {createNatsBus} from '../../src/bus/nats.js'
import {serve, type HostedServer} from '../../src/http/host.js'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import {silentLogger} from '../../src/lib/log.js'
import {createRegistryContext} from '../../src/registry/context.js'
import {createMessagingPart} from '../../src/registry/messaging/index.js'
import {createPostgresMessagingStore} from '../../src/registry/messaging/store/postgres.js'
import {createRegistry} from '../../src/registry/registry.js'
import {createPostgresRegistryStore} from '../../src/registry/store/postgres.js'
import {openPostgres, type PgPool} from '../../src/store/postgres.js'
import {NATS_URL, PG_URL, dropSchema, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {FrameClient} from './messaging/harness.js'

interface RegistryNode {
  url: string
  ws(token: string): string
  stop(): Promise<void>
}

async function startNode(schema: string, prefix: string, jwtSecret: Uint8Array): Promise<RegistryNode> {
  const pool: PgPool = await openPostgres({url: PG_URL, schema})
  const store = await createPostgresRegistryStore({pool})
  const bus: Bus = await createNatsBus({url: NATS_URL, prefix})
  const context = createRegistryContext({store, bus, logger: silentLogger, publicUrl: 'http://registry.test', jwtSecret})
  const part = createMessagingPart(context, {store: await createPostgresMessagingStore(pool)})
  const registry = createRegistry({context, parts: [part]})
  const server: HostedServer = await serve({services: [registry], logger: silentLogger})
  return {
    url: server.url,
    ws: (token) => `${server.url.replace('http', 'ws')}/v1/agents/ws?token=${token}`,
    async stop() {
      await server.stop()
      await bus.close()
      await pool.end()
    },
  }
}

const json = async (url: string, init: {method?: string; body?: unknown; token?: string; headers?: Record<string, string>; raw?: string} = {}) => {
  const res = await fetch(url, {
    method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
    headers: {'content-type': 'application/json', ...(init.token ? {authorization: `Bearer ${init.token}`} : {}), ...init.headers},
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  })
  return {status: res.status, body: (await res.json()) as Record<string, any>}
}

describe('two registry nodes (PostgreSQL + NATS, in process)', () => {
  const schema = uniqueSchema('mn')
  const prefix = uniqueNatsPrefix()
  const secret = randomBytes(32)
  let a: RegistryNode
  let b: RegistryNode
  const tokens: Record<string, string> = {}
  const clients: FrameClient[] = []

  beforeAll(async () => {
    a = await startNode(schema, prefix, secret)
    b = await startNode(schema, prefix, secret)
    for (const [agentId, node] of [['xavier', a], ['yolanda', b], ['zed', b]] as const) {
      const reg = await json(`${node.url}/v1/agents/register`, {body: {agent_id: agentId, capabilities: ['demo']}})
      expect(reg.status).toBe(201)
      tokens[agentId] = (await json(`${node.url}/v1/agents/token`, {body: {agent_id: agentId, api_key: reg.body.api_key}})).body.token
    }
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await a?.stop()
    await b?.stop()
    await dropSchema(schema)
  })

  it('sees liveness from either node', async () => {
    expect((await json(`${a.url}/v1/agents/yolanda`)).body.online).toBe(true)
    expect((await json(`${b.url}/v1/agents/xavier`)).body.online).toBe(true)
  })

  it('carries a WebSocket message from an agent on A to an agent on B, once', async () => {
    const x = await FrameClient.connect(a.ws(tokens.xavier!))
    const y = await FrameClient.connect(b.ws(tokens.yolanda!))
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
    const read = await json(`${b.url}/v1/agents/messages`, {token: tokens.zed})
    expect(read.body.messages).toEqual([{id: queued.id, from: 'xavier', payload: 'when you are back', ts: expect.any(String)}])
    expect(await x.next('receipt')).toMatchObject({type: 'receipt', message_ids: [queued.id], read_by: 'zed', via: 'read'})
  })

  it('stops routing to a node once the agent left it', async () => {
    const [x, y] = clients
    await y!.close()
    x!.send({msg_type: 'message', to: 'yolanda', payload: 'after leaving'})
    expect(await x!.next()).toMatchObject({type: 'queued', to: 'yolanda'})
    expect((await json(`${a.url}/v1/agents/messages`, {token: tokens.yolanda})).body.messages.map((m: {payload: unknown}) => m.payload)).toEqual(['after leaving'])
  })

  it('refuses on B a Mesh-Sig nonce already used on A', async () => {
    const keys = generateIdentityKeyPair()
    const raw = JSON.stringify({agent_id: 'signed-one', capabilities: ['demo'], pubkey: keys.publicKey})
    const header = signRequest({method: 'POST', path: '/v1/agents/register', body: raw, privateKey: keys.privateKeyPem})
    const first = await json(`${a.url}/v1/agents/register`, {raw, headers: {'mesh-sig': header}})
    expect(first.status).toBe(201)
    const replay = await json(`${b.url}/v1/agents/register`, {raw, headers: {'mesh-sig': header}})
    expect(replay.status).toBe(401)
    expect(replay.body.error.code).toBe('nonce_reused')
  })
})
