import type {Socket} from 'node:net'
import {afterEach, expect, it} from 'vitest'
import {Client, createCluster, join, startRelay, type TestRelay} from './helpers.js'

let relay: TestRelay | undefined
const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay?.stop()
})

const HIGH_WATER = 256 * 1024
const MESSAGE = 'z'.repeat(32 * 1024)
const BATCH = 32

it('closes a member that never reads as a slow consumer while the others keep receiving', async () => {
  relay = await startRelay({limits: {highWaterBytes: HIGH_WATER, messagesPerWindow: 1_000_000}})
  // The relay's end of every member socket, to watch what it holds for each peer.
  const relaySockets: Socket[] = []
  relay.server.server.on('upgrade', (_request, socket: Socket) => relaySockets.push(socket))
  let mostHeld = 0
  const watch = setInterval(() => {
    for (const socket of relaySockets) mostHeld = Math.max(mostHeld, socket.writableLength)
  }, 1)
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const sender = await join(relay.url, cluster_id, {agent: 'sender'})
  const reader = await join(relay.url, cluster_id, {agent: 'reader'})
  const slow = await join(relay.url, cluster_id, {agent: 'slow'})
  clients.push(sender, reader, slow)
  // The slow member stops reading its TCP socket: bytes pile up in the kernel, then in the relay.
  ;(slow.ws as unknown as {_socket: Socket})._socket.pause()

  let sent = 0
  let slowGone = false
  const gone = reader.next((f) => f.type === 'presence' && f.agent === 'slow' && f.status === 'offline', 120_000).then(() => (slowGone = true))
  // Pump in acknowledged batches until the relay gives up on the slow member (bounded: 200 MB).
  while (!slowGone && sent < 6400) {
    for (let i = 0; i < BATCH; i++) sender.send(MESSAGE)
    sent += BATCH
    await sender.next(() => sender.ofType('ack').length === sent, 30_000)
    for (const socket of relaySockets) mostHeld = Math.max(mostHeld, socket.writableLength)
  }
  await gone
  const sentBeforeClose = sent
  // More traffic after the close: it still reaches the reader, and none of it is queued for the slow member.
  for (let batch = 0; batch < 4; batch++) {
    for (let i = 0; i < BATCH; i++) sender.send(MESSAGE)
    sent += BATCH
    await sender.next(() => sender.ofType('ack').length === sent, 30_000)
  }
  clearInterval(watch)
  // Memory stays bounded: no socket ever held more than the mark plus one frame (and the tiny closed/close frames).
  const frameBytes = MESSAGE.length + 200
  expect(mostHeld).toBeGreaterThan(0)
  expect(mostHeld).toBeLessThanOrEqual(HIGH_WATER + 2 * frameBytes)
  expect(sender.ofType('ack').at(-1)).toEqual({type: 'ack', to: null, delivered: 1})
  await reader.next(() => reader.ofType('message').length === sent, 30_000)
  expect(reader.ofType('message')).toHaveLength(sent)

  // The slow member, reading again, finds its socket closed after what had been buffered.
  ;(slow.ws as unknown as {_socket: Socket})._socket.resume()
  await slow.closed()
  const received = slow.ofType('message').length
  expect(received).toBeLessThanOrEqual(sentBeforeClose)
  // The `closed` frame is sent if the socket still takes it; it never carries another reason.
  const closed = slow.ofType('closed')
  if (closed.length) expect(closed).toEqual([{type: 'closed', reason: 'slow_consumer'}])
  console.log(`slow consumer: pumped ${sent} × 32 KiB, closed after ${sentBeforeClose}; the slow member got ${received}, closed frame: ${closed.length}, code ${slow.closeCode}; most bytes held for one socket ${mostHeld}`)
})
