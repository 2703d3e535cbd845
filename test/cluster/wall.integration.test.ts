import WebSocket from 'ws'
import {afterEach, describe, expect, it} from 'vitest'
import {createMemoryClusterStore} from '../../src/cluster/store/store.js'
import {noPublicReads} from './public-reads-stub.js'
import type {BoardsPart, RelayLimits} from '../../src/cluster/types.js'
import {api, Client, createCluster, join, refusal, startRelay, wsUrl, type TestRelay} from './helpers.js'

let relay: TestRelay
const clients: Client[] = []
const member = async (clusterId: string, query: Record<string, string | undefined>) => {
  const client = await join(relay.url, clusterId, query)
  clients.push(client)
  return client
}
const start = async (options: {limits?: Partial<RelayLimits>; boards?: BoardsPart} = {}) => (relay = await startRelay(options))
const startWith = async (options: Parameters<typeof startRelay>[0]) => (relay = await startRelay(options))

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay?.stop()
})

/** Sends a marker broadcast from `from` and waits until `to` got it: everything `from` sent before has been handled. */
async function settle(from: Client, to: Client) {
  const marker = `marker-${Math.random()}`
  from.send(marker)
  await to.next((f) => f.type === 'message' && f.payload === marker)
}

describe('frames', () => {
  it('sends ready, presence, message and ack with exact fields, and no echo', async () => {
    await start()
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
    bob.send({payload: {text: 'hi', media: [{mime: 'image/png', url: 'https://x/y.png'}]}})
    expect(await alice.next((f) => f.type === 'message')).toEqual({type: 'message', from: 'bob', to: null, ts: expect.any(String), payload: {text: 'hi', media: [{mime: 'image/png', url: 'https://x/y.png'}]}})
    await settle(bob, alice)
    expect(alice.ofType('message').every((f) => f.from !== 'alice')).toBe(true)
    expect(bob.ofType('message').every((f) => f.from !== 'bob')).toBe(true)
    await bob.close()
    expect(await alice.next((f) => f.type === 'presence' && f.status === 'offline')).toEqual({type: 'presence', agent: 'bob', did: null, status: 'offline'})
  })

  it('broadcasts bare strings, JSON strings and plain text; stream chunks pass untouched', async () => {
    await start()
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const a = await member(cluster_id, {agent: 'a'})
    const b = await member(cluster_id, {agent: 'b'})
    a.send(JSON.stringify('quoted'))
    a.send('not json {')
    a.send('42')
    const chunk = {type: 'message', stream: 's1', seq: 0, delta: 'Hel', done: true, extra: {deep: [1, null]}}
    a.send({payload: chunk})
    await settle(a, b)
    expect(b.ofType('message').map((f) => f.payload).slice(0, 4)).toEqual(['quoted', 'not json {', '42', chunk])
  })

  it('answers malformed and binary frames with invalid_frame errors', async () => {
    await start()
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const a = await member(cluster_id, {agent: 'a'})
    a.send({text: 'no payload key'})
    expect((await a.next((f) => f.type === 'error')).detail).toMatch(/^invalid_frame: /)
    a.send({to: 5, payload: 'x'})
    a.ws.send(Buffer.from([1, 2, 3]), {binary: true})
    await a.next((f) => f.type === 'error' && f !== a.ofType('error')[0] && f !== a.ofType('error')[1])
    expect(a.ofType('error').map((f) => String(f.detail).split(':')[0])).toEqual(['invalid_frame', 'invalid_frame', 'invalid_frame'])
  })
})

describe('direct messages', () => {
  it('reaches every socket of the handle, counts sockets, and acks 0 for an absent peer', async () => {
    await start()
    const {cluster_id, token} = await createCluster(relay.url)
    const alice = await member(cluster_id, {token, agent: 'alice'})
    const bob1 = await member(cluster_id, {token, agent: 'bob'})
    const bob2 = await member(cluster_id, {token, agent: 'bob'})
    const carol = await member(cluster_id, {token, agent: 'carol'})
    alice.send({to: 'bob', payload: 'psst'})
    expect(await alice.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: 'bob', delivered: 2})
    for (const bob of [bob1, bob2]) expect(await bob.next((f) => f.type === 'message')).toMatchObject({from: 'alice', to: 'bob', payload: 'psst'})
    alice.send({to: 'nobody', payload: 'hello?'})
    expect(await alice.next((f) => f.type === 'ack' && f.to === 'nobody')).toEqual({type: 'ack', to: 'nobody', delivered: 0})
    // A socket sending to its own handle reaches its twin, not itself.
    bob1.send({to: 'bob', payload: 'note to self'})
    expect(await bob2.next((f) => f.type === 'message' && f.payload === 'note to self')).toMatchObject({from: 'bob', to: 'bob'})
    expect(await bob1.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: 'bob', delivered: 1})
    await settle(alice, carol)
    expect(carol.ofType('message').filter((f) => f.to !== null)).toEqual([])
  })

  it('lists duplicate handles once and announces a handle only on its first and last socket', async () => {
    await start()
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const watcher = await member(cluster_id, {agent: 'watcher'})
    const bob1 = await member(cluster_id, {agent: 'bob'})
    const bob2 = await member(cluster_id, {agent: 'bob'})
    expect(bob2.frames[0]).toMatchObject({online: ['watcher', 'bob']})
    await bob1.close()
    await bob2.close()
    await watcher.next((f) => f.type === 'presence' && f.status === 'offline')
    expect(watcher.ofType('presence').map((f) => `${f.agent}:${f.status}`)).toEqual(['bob:online', 'bob:offline'])
  })

  it('shows direct messages between others to the owner of a public cluster (monitor view)', async () => {
    await start()
    const {cluster_id, token} = await createCluster(relay.url, {visibility: 'public'})
    const owner = await member(cluster_id, {agent: 'host', token})
    expect(owner.frames[0]).toMatchObject({type: 'ready', public: true, owner: true})
    const alice = await member(cluster_id, {agent: 'alice'})
    expect(alice.frames[0]).toMatchObject({public: true, owner: false})
    const bob = await member(cluster_id, {agent: 'bob'})
    const eve = await member(cluster_id, {agent: 'eve'})
    alice.send({to: 'bob', payload: 'secret'})
    expect(await owner.next((f) => f.type === 'message')).toMatchObject({from: 'alice', to: 'bob', payload: 'secret'})
    expect(await alice.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: 'bob', delivered: 1})
    await bob.next((f) => f.type === 'message')
    await settle(alice, eve)
    expect(eve.ofType('message').filter((f) => f.to === 'bob')).toEqual([])
  })

  it('gives no owner view on a private cluster', async () => {
    await start()
    const {cluster_id, token} = await createCluster(relay.url)
    const a = await member(cluster_id, {agent: 'a', token})
    const b = await member(cluster_id, {agent: 'b', token})
    const c = await member(cluster_id, {agent: 'c', token})
    expect(a.frames[0]).toMatchObject({owner: false, public: false})
    a.send({to: 'b', payload: 'dm'})
    await b.next((f) => f.type === 'message')
    await settle(a, c)
    expect(c.ofType('message').filter((f) => f.to === 'b')).toEqual([])
  })
})

describe('ghosts', () => {
  it('are never announced, listed or counted, yet read and send', async () => {
    await start()
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public', name: 'Haunted'})
    const alice = await member(cluster_id, {agent: 'alice'})
    const ghost = await member(cluster_id, {agent: 'casper', vis: 'ghost'})
    expect(ghost.frames[0]).toEqual({type: 'ready', you: 'casper', you_did: null, public: true, owner: false, online: ['alice']})
    const bob = await member(cluster_id, {agent: 'bob', vis: 'private'})
    expect(bob.frames[0]).toMatchObject({online: ['alice', 'bob']})
    alice.send('boo?')
    expect(await ghost.next((f) => f.type === 'message')).toMatchObject({from: 'alice', payload: 'boo?'})
    expect(await alice.next((f) => f.type === 'ack')).toEqual({type: 'ack', to: null, delivered: 1})
    ghost.send('whoo')
    expect(await alice.next((f) => f.type === 'message' && f.payload === 'whoo')).toMatchObject({from: 'casper'})
    alice.send({to: 'casper', payload: 'are you there'})
    expect(await ghost.next((f) => f.to === 'casper')).toMatchObject({payload: 'are you there'})
    expect(await alice.next((f) => f.type === 'ack' && f.to === 'casper')).toEqual({type: 'ack', to: 'casper', delivered: 0})
    const catalog = await api(relay.url, 'GET', '/v1/clusters')
    expect(catalog.body.clusters[0].online).toBe(2)
    const detail = await api(relay.url, 'GET', '/v1/clusters/haunted')
    expect(detail.body.cluster.members).toEqual([{agent: 'alice', did: null}, {agent: 'member #2', did: null}])
    expect(JSON.stringify(detail.body)).not.toContain('casper')
    await ghost.close()
    await settle(bob, alice)
    expect(alice.ofType('presence').map((f) => f.agent)).toEqual(['bob'])
  })
})

describe('limits', () => {
  it('refuses frames over 64 KB with frame_too_large and never relays them', async () => {
    await start()
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const a = await member(cluster_id, {agent: 'a'})
    const b = await member(cluster_id, {agent: 'b'})
    a.send('x'.repeat(64 * 1024 + 1))
    expect((await a.next((f) => f.type === 'error')).detail).toMatch(/^frame_too_large: /)
    const atLimit = 'y'.repeat(64 * 1024)
    a.send(atLimit)
    expect((await b.next((f) => f.type === 'message')).payload).toBe(atLimit)
    expect(b.ofType('message')).toHaveLength(1)
    expect(a.ws.readyState).toBe(WebSocket.OPEN)
  })

  it('limits the message rate per socket with rate_limited errors', async () => {
    await start({limits: {messagesPerWindow: 3, messageWindowMs: 60_000}})
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const a = await member(cluster_id, {agent: 'a'})
    const b = await member(cluster_id, {agent: 'b'})
    for (let i = 0; i < 5; i++) a.send(`m${i}`)
    await a.next((f) => f.type === 'error' && a.ofType('error').length === 2)
    expect(a.ofType('error').every((f) => String(f.detail).startsWith('rate_limited: '))).toBe(true)
    b.send('sync')
    await a.next((f) => f.payload === 'sync')
    expect(b.ofType('message').map((f) => f.payload)).toEqual(['m0', 'm1', 'm2'])
  })

  it('keeps order through a burst sent before and after ready, with no busy errors', async () => {
    await start({limits: {messagesPerWindow: 100_000}})
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const reader = await member(cluster_id, {agent: 'reader'})
    const burst = new Client(new WebSocket(wsUrl(relay.url, cluster_id, {agent: 'burst'})))
    clients.push(burst)
    await burst.opened
    // Sent at once on open: they wait for the join, then go out in order.
    for (let i = 0; i < 500; i++) burst.send(`early ${i}`)
    await burst.next((f) => f.type === 'ready')
    for (let i = 0; i < 3000; i++) burst.send(`late ${i}`)
    await reader.next(() => reader.ofType('message').length === 3500)
    const expected = [...Array.from({length: 500}, (_, i) => `early ${i}`), ...Array.from({length: 3000}, (_, i) => `late ${i}`)]
    expect(reader.ofType('message').map((f) => f.payload)).toEqual(expected)
    expect(burst.ofType('error')).toEqual([])
    expect(burst.frames[0].type).toBe('ready')
  })

  it('refuses a member over the per-cluster limit with 429 before the upgrade', async () => {
    await start({limits: {membersPerCluster: 2}})
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    await member(cluster_id, {agent: 'a'})
    await member(cluster_id, {agent: 'b', vis: 'ghost'})
    const refused = await refusal(relay.url, cluster_id, {agent: 'c'})
    expect(refused.status).toBe(429)
    expect(refused.body.error.code).toBe('cluster_full')
  })
})

describe('members limit under concurrent joins', () => {
  it('admits exactly the limit when many sockets arrive at once on a cold cluster, and frees places as members leave', async () => {
    // A store slow to list presence keeps every arrival's count read in flight together (the race to close).
    const store = createMemoryClusterStore()
    const slowStore = new Proxy(store, {
      get: (target, key) =>
        key === 'listPresence'
          ? async (...args: Parameters<typeof store.listPresence>) => {
              const listed = await target.listPresence(...args)
              await new Promise((resolve) => setTimeout(resolve, 50))
              return listed
            }
          : Reflect.get(target, key),
    })
    await startWith({store: slowStore, limits: {membersPerCluster: 2}})
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const attempts = Array.from({length: 6}, (_, i) => {
      const client = new Client(new WebSocket(wsUrl(relay.url, cluster_id, {agent: `m${i}`})))
      clients.push(client)
      return client.opened.then(
        () => 'open',
        (error: {status?: number}) => `refused ${error.status}`,
      )
    })
    const outcomes = await Promise.all(attempts)
    expect(outcomes.filter((o) => o === 'open')).toHaveLength(2)
    expect(outcomes.filter((o) => o === 'refused 429')).toHaveLength(4)
    // A member leaving gives its place back.
    const opened = clients.filter((c) => c.ws.readyState === WebSocket.OPEN)
    await opened[0].next((f) => f.type === 'ready')
    await opened[1].next((f) => f.type === 'ready')
    expect((await refusal(relay.url, cluster_id, {agent: 'late'})).status).toBe(429)
    await opened[0].close()
    await opened[1].next((f) => f.type === 'presence' && f.status === 'offline')
    await member(cluster_id, {agent: 'late'})
  })
})

describe('admission', () => {
  it('refuses with a real HTTP status before any upgrade', async () => {
    await start()
    const priv = await createCluster(relay.url)
    const pub = await createCluster(relay.url, {visibility: 'public'})
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [priv.cluster_id, {agent: 'x'}, 401, 'token_required'],
      [priv.cluster_id, {agent: 'x', token: 'ck_wrong'}, 401, 'invalid_token'],
      [priv.cluster_id, {agent: 'x', token: pub.token}, 401, 'invalid_token'],
      ['c_AAAAAAAAAAAAAAAAAAAAAAAA', {agent: 'x'}, 404, 'cluster_not_found'],
      [pub.cluster_id, {}, 400, 'agent_required'],
      [pub.cluster_id, {agent: 'x', vis: 'invisible'}, 400, 'invalid_vis'],
      [pub.cluster_id, {agent: 'x'.repeat(500)}, 400, 'invalid_agent'],
    ]
    for (const [id, query, status, code] of cases) {
      const refused = await refusal(relay.url, id, query)
      expect([refused.status, refused.body.error.code], JSON.stringify(query)).toEqual([status, code])
    }
    // The admin token also opens a private cluster.
    const admin = await member(priv.cluster_id, {agent: 'admin', token: priv.admin_token})
    expect(admin.frames[0]).toMatchObject({type: 'ready', owner: false})
  })
})

describe('lifecycle', () => {
  it('closes every socket with closed {reason: deleted} when the cluster is deleted', async () => {
    await start()
    const {cluster_id, token, admin_token} = await createCluster(relay.url)
    const a = await member(cluster_id, {token, agent: 'a'})
    const b = await member(cluster_id, {token, agent: 'b'})
    const res = await api(relay.url, 'DELETE', `/v1/clusters/${cluster_id}`, undefined, {'x-cluster-token': admin_token})
    expect(res.body).toEqual({ok: true, cluster_id})
    for (const c of [a, b]) {
      await c.closed()
      expect(c.frames.at(-1)).toEqual({type: 'closed', reason: 'deleted'})
      expect(c.ofType('presence').filter((f) => f.status === 'offline')).toEqual([])
    }
    expect((await refusal(relay.url, cluster_id, {token, agent: 'a'})).status).toBe(404)
  })

  it('sends closed {reason: server_shutdown} on stop', async () => {
    await start()
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const a = await member(cluster_id, {agent: 'a'})
    await relay.stop()
    await a.closed()
    expect(a.frames.at(-1)).toEqual({type: 'closed', reason: 'server_shutdown'})
  })

  it('closes a socket that stops answering pings', async () => {
    // Long enough that a busy test machine never makes the answering watcher look dead.
    await start({limits: {pingIntervalMs: 400}})
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const watcher = await member(cluster_id, {agent: 'watcher'})
    const client = new Client(new WebSocket(wsUrl(relay.url, cluster_id, {agent: 'mute'}), {autoPong: false}))
    clients.push(client)
    await client.opened
    await client.closed()
    expect(client.frames.at(-1)).toEqual({type: 'closed', reason: 'idle'})
    expect(await watcher.next((f) => f.type === 'presence' && f.status === 'offline')).toMatchObject({agent: 'mute'})
    expect(watcher.ws.readyState).toBe(WebSocket.OPEN)
  })
})

describe('hashtags and server-side sends', () => {
  it('adds board and ref from the boards part for text with #', async () => {
    const calls: string[] = []
    const boards: BoardsPart = {
      middleware: async (_ctx, next) => next(),
      resolveTags: async (_id, text) => (calls.push(text), text.includes('#news') ? {board: 'news', ref: 'p_1'} : {}),
      onClusterDeleted: async () => {},
      publicReads: noPublicReads,
    }
    await start({boards})
    const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
    const a = await member(cluster_id, {agent: 'a'})
    const b = await member(cluster_id, {agent: 'b'})
    a.send('see #news')
    a.send({payload: {text: 'plain'}})
    a.send({payload: {text: 'also #nothing'}})
    await b.next(() => b.ofType('message').length === 3)
    const [tagged, plain, untagged] = b.ofType('message')
    expect(tagged).toMatchObject({payload: 'see #news', board: 'news', ref: 'p_1'})
    expect(plain).not.toHaveProperty('board')
    expect(untagged).not.toHaveProperty('board')
    expect(calls).toEqual(['see #news', 'also #nothing'])
  })

  it('broadcasts from the server side (legacy channel route)', async () => {
    await start()
    const {cluster_id, token} = await createCluster(relay.url)
    const a = await member(cluster_id, {token, agent: 'a'})
    await member(cluster_id, {token, agent: 'g', vis: 'ghost'})
    // A private cluster needs its token on this path too (private-paths.integration.test.ts pins every variant).
    await expect(relay.relay.broadcast(cluster_id, 'legacy-bot', {text: 'no token'})).rejects.toMatchObject({code: 'cluster_not_found'})
    expect(await relay.relay.broadcast(cluster_id, 'legacy-bot', {text: 'hi'}, token)).toEqual({delivered: 1})
    expect(await a.next((f) => f.type === 'message')).toMatchObject({from: 'legacy-bot', to: null, payload: {text: 'hi'}})
    await expect(relay.relay.broadcast('c_AAAAAAAAAAAAAAAAAAAAAAAA', 'x', 'y')).rejects.toMatchObject({code: 'cluster_not_found'})
  })
})
