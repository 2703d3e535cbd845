import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createCluster, join, refusal, startRelay, type Client, type TestRelay} from './helpers.js'

let relay: TestRelay
const clients: Client[] = []
const member = async (clusterId: string, query: Record<string, string | undefined>) => {
  const client = await join(relay.url, clusterId, query)
  clients.push(client)
  return client
}

beforeEach(async () => {
  relay = await startRelay()
})
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay.stop()
})

describe('relay wall', () => {
  it('sends ready, presence, message and ack with exact fields', async () => {
    const {cluster_id, token} = await createCluster(relay.url)
    const alice = await member(cluster_id, {token, agent: 'alice', did: 'did:key:zA'})
    expect(alice.frames[0]).toEqual({type: 'ready', you: 'alice', you_did: 'did:key:zA', public: false, owner: false, online: ['alice']})
    const bob = await member(cluster_id, {token, agent: 'bob'})
    expect(bob.frames[0]).toEqual({type: 'ready', you: 'bob', you_did: null, public: false, owner: false, online: ['alice', 'bob']})
    expect(await alice.next((f) => f.type === 'presence')).toEqual({type: 'presence', agent: 'bob', did: null, status: 'online'})
    alice.send('hello')
    const msg = await bob.next((f) => f.type === 'message')
    expect(msg).toEqual({type: 'message', from: 'alice', from_did: 'did:key:zA', to: null, ts: expect.any(String), payload: 'hello'})
    expect(new Date(msg.ts as string).toISOString()).toBe(msg.ts)
    expect(await alice.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: null, delivered: 1})
    expect(alice.ofType('message')).toEqual([])
  })

  it('refuses a private socket without the token before the upgrade', async () => {
    const {cluster_id} = await createCluster(relay.url)
    expect((await refusal(relay.url, cluster_id, {agent: 'x'})).status).toBe(401)
  })
})
