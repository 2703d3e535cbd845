/**
 * Two registry nodes on one PostgreSQL schema and one NATS server, as
 * `mesh serve registry --database-url … --nats …` runs them: shared secrets,
 * shared agents, nonces refused across nodes, events seen on both.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import type {RegistryEvent} from '../../src/registry/types.js'
import {registryNodes, type RegistryNodes} from '../support/registry-nodes.js'

let cluster: RegistryNodes
let nodes: RegistryNodes['nodes']
let root: string

beforeAll(async () => {
  cluster = await registryNodes('regnodes')
  ;({nodes, root} = cluster)
  await cluster.start('a')
  await cluster.start('b')
})
afterAll(() => cluster.close())

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body})

describe('two registry nodes', () => {
  it('share the JWT secret and admin key through the database', async () => {
    const [a, b] = nodes
    expect(a.server.adminKey).toBe(b.server.adminKey)
    expect((await readFile(join(root, 'b', 'registry-admin.key'), 'utf8')).trim()).toBe(a.server.adminKey)
    const registered = (await (await post(`${a.hosted.url}/v1/agents/register`, JSON.stringify({agent_id: 'shared1'}))).json()) as {token: string; api_key: string}
    const patched = await fetch(`${b.hosted.url}/v1/agents/me`, {method: 'PATCH', headers: {authorization: `Bearer ${registered.token}`, 'content-type': 'application/json'}, body: '{"description":"via b"}'})
    expect(patched.status).toBe(200)
    const token = await post(`${b.hosted.url}/v1/agents/token`, JSON.stringify({agent_id: 'shared1', api_key: registered.api_key}))
    expect(token.status).toBe(200)
  })

  it('refuses on node B a Mesh-Sig nonce already used on node A', async () => {
    const [a, b] = nodes
    const keys = generateIdentityKeyPair()
    const body = JSON.stringify({agent_id: 'signed-x', pubkey: keys.publicKey})
    const sig = signRequest({method: 'POST', path: '/v1/agents/register', body, privateKey: keys.privateKeyPem})
    expect((await post(`${a.hosted.url}/v1/agents/register`, body, {'mesh-sig': sig})).status).toBe(201)
    const replay = await post(`${b.hosted.url}/v1/agents/register`, body, {'mesh-sig': sig})
    expect(replay.status).toBe(401)
    expect(((await replay.json()) as {error: {code: string}}).error.code).toBe('nonce_reused')
  })

  it('delivers registry events to every node over NATS', async () => {
    const [a, b] = nodes
    const seenOnB = new Promise<RegistryEvent>((resolve) => b.server.registry.context.events.subscribe((e) => e.agent_id === 'evented' && resolve(e)))
    await post(`${a.hosted.url}/v1/agents/register`, JSON.stringify({agent_id: 'evented'}))
    expect(await seenOnB).toMatchObject({type: 'agent.registered', agent_id: 'evented'})
  })
})
