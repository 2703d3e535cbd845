/**
 * Member.sendWire writes pre-framed bytes to the TCP socket that `ws` also
 * writes to. These tests drive one real server-side `ws` socket and a Member
 * directly, in one tick at a time, and read the stream with the strict raw
 * client: ws's own frames (ping, send, close) and ours must come out whole,
 * in call order, and nothing may follow a close frame — whoever closed.
 */
import {createServer, type Server} from 'node:http'
import type {Duplex} from 'node:stream'
import {WebSocketServer, type WebSocket} from 'ws'
import {afterEach, expect, it} from 'vitest'
import {NO_RELAY_METRICS} from '../../../src/cluster/metrics.js'
import {encodeFrame} from '../../../src/cluster/ws/frames.js'
import {Member} from '../../../src/cluster/ws/member.js'
import {Outbox, textFrame} from '../../../src/cluster/ws/wire.js'
import {RawClient} from '../raw-client.js'

let server: Server | undefined
let client: RawClient | undefined
afterEach(async () => {
  client?.socket.destroy()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
})

/** A listening server whose first upgrade becomes a Member; resolves with both ends. */
async function pair(options: {highWaterBytes?: number} = {}) {
  const wss = new WebSocketServer({noServer: true, perMessageDeflate: false})
  const outbox = new Outbox()
  const gone: Member[] = []
  const accepted = new Promise<Member>((resolve) => {
    server = createServer()
    server.on('upgrade', (request, socket: Duplex, head) =>
      wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
        ws.on('error', () => {})
        resolve(
          new Member(ws, socket, 'c_test', {agent: 'a', did: null, vis: 'public', owner: false, public: true}, {
            outbox,
            highWaterBytes: options.highWaterBytes ?? 1 << 20,
            metrics: NO_RELAY_METRICS,
            now: Date.now,
            onGone: (m) => gone.push(m),
            joined: Promise.resolve(true),
          }),
        )
      }),
    )
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const {port} = server!.address() as {port: number}
  client = await RawClient.open(`http://127.0.0.1:${port}`, '/ws')
  return {member: await accepted, client, gone, outbox}
}

const json = (n: number) => encodeFrame({type: 'error', detail: `n${n}:` + 'y'.repeat(n % 3 === 0 ? 70_000 : n)})
const wire = (n: number) => textFrame(json(n))
/** The numbers of the test frames a client got, in order. */
const numbers = (raw: RawClient) => raw.texts('error').map((f) => Number(/^n(\d+):/.exec(String(f.detail))![1]))
/** One short word per frame: `t<n>` for a test frame, `ping:<data>`, `close:<code>`… */
const describeFrame = (f: RawClient['frames'][number]) =>
  f.kind === 'text' ? (f.json.type === 'error' ? `t${/^n(\d+):/.exec(String(f.json.detail))![1]}` : String(f.json.type)) : f.kind === 'close' ? `close:${f.code}` : `${f.kind}:${f.data}`

it('interleaves its frames with ping, pong and ws.send in call order within one tick', async () => {
  const {member, client} = await pair()
  member.sendWire(wire(1), json(1))
  member.ws.ping(Buffer.from('p1'))
  member.sendWire(wire(2), json(2))
  member.ws.send(json(3), {binary: false}) // ws's own send path, as a fallback or a closed frame takes
  member.sendWire(wire(4), json(4))
  member.ws.pong(Buffer.from('p2'))
  member.send(json(5))
  expect(member.corked).toBe(true)
  await client.until(() => client.frames.length === 7)
  expect(client.violations).toEqual([])
  expect(client.frames.map(describeFrame)).toEqual(['t1', 'ping:p1', 't2', 't3', 't4', 'pong:p2', 't5'])
})

it('writes nothing after a close frame ws sent on its own, in the same tick or later', async () => {
  const {member, client} = await pair()
  member.sendWire(wire(1), json(1))
  // ws closes by itself (it does on a peer's close frame or a protocol error), while our bytes are still corked.
  member.ws.close(1000)
  expect(member.sendWire(wire(2), json(2))).toBe(false)
  expect(member.send(json(3))).toBe(false)
  await new Promise((resolve) => setImmediate(resolve))
  expect(member.sendWire(wire(4), json(4))).toBe(false)
  await client.ended
  expect(client.violations).toEqual([])
  expect(numbers(client)).toEqual([1])
  expect(client.frames.at(-1)).toEqual({kind: 'close', code: 1000})
  expect(client.bytesAfterClose).toBe(0)
})

it('answers a peer close frame with its own and writes nothing after it', async () => {
  const {member, client, gone} = await pair()
  client.close(1000)
  await client.until(() => client.frames.at(-1)?.kind === 'close')
  for (let i = 0; i < 5; i++) member.sendWire(wire(i), json(i))
  await client.ended
  if (member.ws.readyState !== member.ws.CLOSED) await new Promise((resolve) => member.ws.once('close', resolve))
  expect(client.violations).toEqual([])
  expect(client.texts()).toEqual([])
  expect(client.bytesAfterClose).toBe(0)
  expect(gone).toEqual([member])
})

it('puts closed{reason} after the corked frames, then the close frame, then nothing', async () => {
  const {member, client, gone} = await pair()
  for (let i = 1; i <= 3; i++) member.sendWire(wire(i), json(i))
  member.close('deleted')
  expect(member.sendWire(wire(9), json(9))).toBe(false)
  expect(gone).toEqual([member])
  await client.ended
  expect(client.violations).toEqual([])
  expect(client.frames.map(describeFrame)).toEqual(['t1', 't2', 't3', 'closed', 'close:4000'])
  expect(client.texts().at(-1)).toEqual({type: 'closed', reason: 'deleted'})
  expect(client.bytesAfterClose).toBe(0)
})

it('closes a socket past the high-water mark as a slow consumer, with whole frames only', async () => {
  const {member, client} = await pair({highWaterBytes: 64 * 1024})
  client.socket.pause()
  let accepted = 0
  // Each tick, a batch; the kernel buffers fill, then unsent bytes pass the mark.
  for (let tick = 0; tick < 400 && !member.closing; tick++) {
    for (let i = 0; i < 10; i++) if (member.sendWire(wire(accepted + 1), json(accepted + 1))) accepted++
    await new Promise((resolve) => setImmediate(resolve))
  }
  expect(member.closing).toBe(true)
  // Bounded: what waits for the peer is at most the mark, one frame, and the closed and close frames.
  expect(member.socket.writableLength).toBeLessThanOrEqual(64 * 1024 + wire(3).length + 64)
  client.socket.resume()
  await client.ended
  expect(client.violations).toEqual([])
  // A prefix of what was accepted, whole and in order.
  const got = numbers(client)
  expect(got).toEqual(Array.from({length: got.length}, (_, i) => i + 1))
  expect(got.length).toBeLessThanOrEqual(accepted)
  expect(client.bytesAfterClose).toBe(0)
  expect(client.frames.at(-1)).toEqual({kind: 'close', code: 1008})
})
