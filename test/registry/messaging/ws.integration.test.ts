import {once} from 'node:events'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {createMemoryMessagingStore} from '../../../src/registry/messaging/store/store.js'
import {FrameClient, registerAgents, startNode, tokenOf, type Node} from './harness.js'

/** Reads the HTTP refusal a server writes instead of a handshake. */
async function refusal(url: string): Promise<{status: number; body: unknown}> {
  const ws = new WebSocket(url)
  ws.on('error', () => {}) // terminate() below reports "closed before established"
  const [, res] = (await once(ws, 'unexpected-response')) as [unknown, import('node:http').IncomingMessage]
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  ws.terminate()
  return {status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString())}
}

describe('agent WebSocket', () => {
  let node: Node
  const clients: FrameClient[] = []
  const connect = async (agentId: string) => {
    const client = await FrameClient.connect(node.wsUrl(agentId))
    clients.push(client)
    return client
  }

  beforeEach(async () => {
    node = await startNode({}, {store: createMemoryMessagingStore(), tuning: {wsRateLimit: {limit: 20, windowMs: 60_000}}})
    await registerAgents(node.ctx.store, 'ann', 'bob', 'cat')
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
    await node.stop()
  })

  it('refuses a missing or bad token with 401 before the handshake', async () => {
    const base = node.url.replace('http', 'ws') + '/v1/agents/ws'
    expect(await refusal(base)).toEqual({status: 401, body: {error: {code: 'missing_token', message: expect.any(String)}}})
    expect((await refusal(`${base}?token=tok-ghost`)).status).toBe(401)
    expect((await refusal(node.url.replace('http', 'ws') + '/v1/agents/elsewhere')).status).toBe(404)
  })

  it('accepts the token as a Bearer header too, and welcomes with the agent id and limits', async () => {
    const client = await FrameClient.open(node.url.replace('http', 'ws') + '/v1/agents/ws', {headers: {authorization: `Bearer ${tokenOf('ann')}`}})
    clients.push(client)
    expect(await client.next()).toEqual({
      type: 'welcome',
      agent_id: 'ann',
      node_id: node.ctx.bus.nodeId,
      inbox: 0,
      limits: {max_frame_bytes: expect.any(Number), rate_limit: 20, rate_window_ms: 60_000},
    })
  })

  it('delivers a direct message to every socket of the peer, once, and confirms to the sender', async () => {
    const ann = await connect('ann')
    const bob1 = await connect('bob')
    const bob2 = await connect('bob')
    ann.send({msg_type: 'message', to: 'bob', payload: {hi: 'bob'}, ref: 'r1'})
    const delivered = await ann.next('delivered')
    expect(delivered).toEqual({type: 'delivered', to: 'bob', id: expect.any(Number), sockets: 2, ref: 'r1'})
    for (const bob of [bob1, bob2]) {
      expect(await bob.next()).toEqual({type: 'message', id: delivered.id, from: 'ann', payload: {hi: 'bob'}, ts: expect.any(String)})
    }
    ann.send({msg_type: 'ping'})
    await ann.next('pong')
    expect(bob1.frames).toEqual([])
    expect(ann.frames).toEqual([])
  })

  it('opens a direct room with connect_to, then sends without `to`', async () => {
    const ann = await connect('ann')
    const bob = await connect('bob')
    ann.send({msg_type: 'connect_to', to: 'bob'})
    expect(await ann.next()).toEqual({type: 'room_open', to: 'bob', online: true})
    ann.send({msg_type: 'message', payload: 'in the room'})
    expect((await bob.next('message')).payload).toBe('in the room')
    expect((await ann.next()).type).toBe('delivered')
    ann.send({msg_type: 'connect_to', to: 'cat'})
    expect(await ann.next()).toEqual({type: 'room_open', to: 'cat', online: false})
  })

  it('queues a message for a peer that is not connected, keeping its id, and reads it from the inbox', async () => {
    const ann = await connect('ann')
    ann.send({msg_type: 'message', to: 'cat', payload: {later: true}})
    const queued = await ann.next()
    expect(queued).toEqual({type: 'queued', to: 'cat', id: expect.any(Number), via: 'inbox'})
    const inbox = await node.part.service.read('cat')
    expect(inbox.messages).toEqual([{id: queued.id, from: 'ann', payload: {later: true}, ts: expect.any(String)}])
    // the read sends a receipt, which reaches the connected sender live rather than its inbox
    expect(await ann.next('receipt')).toEqual({type: 'receipt', message_ids: [queued.id], read_by: 'cat', at: expect.any(String), via: 'read'})
    expect((await node.part.service.counts('ann')).inbox).toBe(0)
  })

  it('tells a connecting agent how many inbox messages wait', async () => {
    await node.part.service.send('bob', 'cat', 1)
    await node.part.service.send('bob', 'cat', 2)
    const cat = await FrameClient.open(node.wsUrl('cat'))
    clients.push(cat)
    expect((await cat.next()).inbox).toBe(2)
  })

  it('answers malformed, unknown and oversized frames with error frames and keeps the socket', async () => {
    const ann = await connect('ann')
    const cases: Array<[unknown, string]> = [
      ['{nope', 'invalid_json'],
      ['[1,2]', 'invalid_frame'],
      [{to: 'bob'}, 'invalid_frame'],
      [{msg_type: 'dance', ref: 9}, 'unknown_msg_type'],
      [{msg_type: 'message', payload: 1}, 'no_peer'],
      [{msg_type: 'message', to: 'bob'}, 'missing_payload'],
      [{msg_type: 'message', to: 'x!', payload: 1}, 'invalid_recipient'],
      [{msg_type: 'message', to: 'ghost', payload: 1}, 'unknown_peer'],
      [{msg_type: 'connect_to', to: 'ghost'}, 'unknown_peer'],
      [{msg_type: 'message', to: 'bob', payload: 'x'.repeat(64 * 1024 + 1)}, 'payload_too_large'],
      [{msg_type: 'message', to: 'bob', payload: 'x'.repeat(70 * 1024)}, 'frame_too_large'],
    ]
    for (const [frame, code] of cases) {
      ann.send(frame)
      const answer = await ann.next()
      expect([answer.type, answer.code]).toEqual(['error', code])
      expect(answer.message).toEqual(expect.any(String))
    }
    ann.ws.send(Buffer.from('binary'), {binary: true})
    expect((await ann.next()).code).toBe('invalid_frame')
    // the ref of a well-formed frame is echoed on its error
    ann.send({msg_type: 'connect_to', to: 'ghost', ref: 'abc'})
    expect((await ann.next()).ref).toBe('abc')
    ann.send({msg_type: 'ping'})
    expect((await ann.next()).type).toBe('pong')
  })

  it('rate-limits a flooding socket with error frames, dropping the excess', async () => {
    const ann = await connect('ann')
    const bob = await connect('bob')
    for (let i = 0; i < 25; i++) ann.send({msg_type: 'message', to: 'bob', payload: i})
    const answers = []
    for (let i = 0; i < 25; i++) answers.push(await ann.next())
    expect(answers.filter((a) => a.type === 'delivered')).toHaveLength(20)
    expect(answers.filter((a) => a.type === 'error' && a.code === 'rate_limited')).toHaveLength(5)
    const got = []
    for (let i = 0; i < 20; i++) got.push((await bob.next('message')).payload)
    expect(got).toEqual([...Array(20).keys()])
  })

  it('closes a frame above the hard cap with 1009', async () => {
    const ann = await connect('ann')
    ann.ws.send('x'.repeat(1024 * 1024 + 1))
    const [code] = await once(ann.ws, 'close')
    expect(code).toBe(1009)
  })

  it('says goodbye with 1001 server_shutdown on close, and forgets presence', async () => {
    const ann = await connect('ann')
    const closed = once(ann.ws, 'close')
    await node.stop()
    const [code, reason] = await closed
    expect([code, reason.toString()]).toEqual([1001, 'server_shutdown'])
  })
})

describe('agent WebSocket keepalive', () => {
  it('terminates a socket that stops answering pings', async () => {
    const node = await startNode({}, {tuning: {pingIntervalMs: 30}})
    await registerAgents(node.ctx.store, 'ann', 'bob')
    try {
      const silent = await FrameClient.connect(node.wsUrl('ann'), {autoPong: false})
      const alive = await FrameClient.connect(node.wsUrl('bob'))
      const [code] = await once(silent.ws, 'close')
      expect(code).toBe(1006)
      // a socket that answers stays; presence of the dead one is gone, so messages to it queue
      alive.send({msg_type: 'message', to: 'ann', payload: 1})
      expect((await alive.next()).type).toBe('queued')
      await alive.close()
    } finally {
      await node.stop()
    }
  })
})
