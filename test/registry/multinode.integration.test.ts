/**
 * Two real registry processes (`mesh serve registry`) sharing one
 * PostgreSQL schema and one NATS prefix, as two hosts behind a load balancer
 * would. Needs a fresh dist/ (npm test builds first).
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import {NATS_URL, PG_URL, dropSchema, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {FrameClient} from './messaging/harness.js'
import {call, registerAgent, spawnRegistry, type SpawnedRegistry} from './messaging/spawn-registry.js'

describe('two registry processes on PostgreSQL + NATS', () => {
  const schema = uniqueSchema('mn2')
  const prefix = uniqueNatsPrefix()
  const dirs = [mkdtempSync(join(tmpdir(), 'mesh-node-a-')), mkdtempSync(join(tmpdir(), 'mesh-node-b-'))]
  let a: SpawnedRegistry
  let b: SpawnedRegistry
  const tokens: Record<string, string> = {}
  const clients: FrameClient[] = []

  beforeAll(async () => {
    const shared = ['--database-url', PG_URL, '--database-schema', schema, '--nats', NATS_URL, '--nats-prefix', prefix]
    // Sequential starts would work too; at once proves the advisory-locked migrations.
    ;[a, b] = await Promise.all(dirs.map((dir) => spawnRegistry(['--data', dir, ...shared])))
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

  it('delivers a WebSocket message from X on node A to Y on node B exactly once', async () => {
    const x = await FrameClient.connect(a.wsUrl(tokens.xavier!))
    const y = await FrameClient.connect(b.wsUrl(tokens.yolanda!))
    clients.push(x, y)
    x.send({msg_type: 'message', to: 'yolanda', payload: {n: 1}, ref: 'first'})
    const delivered = await x.next()
    expect(delivered).toEqual({type: 'delivered', to: 'yolanda', id: expect.any(Number), sockets: 1, ref: 'first'})
    expect(await y.next()).toEqual({type: 'message', id: delivered.id, from: 'xavier', payload: {n: 1}, ts: expect.any(String)})
    // Y answers across the nodes; a duplicate of the first message would have arrived before this pong
    y.send({msg_type: 'message', to: 'xavier', payload: 'ack 1'})
    expect(await x.next()).toMatchObject({type: 'message', from: 'yolanda', payload: 'ack 1'})
    y.send({msg_type: 'ping'})
    expect((await y.next()).type).toBe('delivered')
    expect(await y.next()).toEqual({type: 'pong'})
    expect(y.frames).toEqual([])
  })

  it('refuses on node B a Mesh-Sig nonce already used on node A', async () => {
    const keys = generateIdentityKeyPair()
    const raw = JSON.stringify({agent_id: 'signed-agent', capabilities: ['demo'], pubkey: keys.publicKey})
    const header = signRequest({method: 'POST', path: '/v1/agents/register', body: raw, privateKey: keys.privateKeyPem})
    expect((await call(`${a.url}/v1/agents/register`, {raw, headers: {'mesh-sig': header}})).status).toBe(201)
    const replay = await call(`${b.url}/v1/agents/register`, {raw, headers: {'mesh-sig': header}})
    expect([replay.status, replay.body.error.code]).toEqual([401, 'nonce_reused'])
  })

  it('keeps an inbox message posted on A for a read on B', async () => {
    const sent = await call(`${a.url}/agents/messages`, {token: tokens.xavier, body: {to: 'yolanda', payload: 'stored'}})
    expect(sent.body).toEqual({ok: true, message_id: expect.any(Number)})
    const read = await call(`${b.url}/agents/messages`, {token: tokens.yolanda})
    expect(read.body.messages).toEqual([{id: sent.body.message_id, from: 'xavier', payload: 'stored', ts: expect.any(String)}])
    // X is connected to A: the read on B sends the receipt to X's socket
    expect(await clients[0]!.next('receipt')).toMatchObject({message_ids: [sent.body.message_id], read_by: 'yolanda', via: 'read'})
  })
})
