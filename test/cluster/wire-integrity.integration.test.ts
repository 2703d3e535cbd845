/**
 * The relay writes pre-framed bytes straight to the TCP socket (ws/wire.ts,
 * Member.sendWire) while `ws` writes its own frames to the same socket:
 * pongs, pings, close frames. A strict raw client (raw-client.ts) checks the
 * stream stays well-formed in every mix: pings both ways during bursts, a
 * close from the client, a delete, and a slow consumer closed mid-burst —
 * and that nothing follows a close frame.
 */
import {afterEach, expect, it} from 'vitest'
import type {RelayLimits} from '../../src/cluster/types.js'
import {api, Client, createCluster, join, startRelay, type TestRelay} from './helpers.js'
import {RawClient} from './raw-client.js'

let relay: TestRelay | undefined
const clients: Client[] = []
const raws: RawClient[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  for (const r of raws.splice(0)) r.socket.destroy()
  await relay?.stop()
})

// Payloads around the frame-length boundaries: 7-bit, 16-bit and 64-bit lengths.
const SIZES = [3, 100, 130, 1000, 40_000, 65_000]
const text = (i: number) => `${i}:` + 'x'.repeat(SIZES[i % SIZES.length])

async function room(limits: Partial<RelayLimits> = {}) {
  relay = await startRelay({limits: {messagesPerWindow: 1_000_000, ...limits}})
  const {cluster_id, admin_token} = await createCluster(relay.url, {visibility: 'public'})
  const sender = await join(relay.url, cluster_id, {agent: 'sender'})
  clients.push(sender)
  const reader = async (agent: string) => {
    const raw = await RawClient.open(relay!.url, `/v1/clusters/${cluster_id}/ws?agent=${agent}`)
    raws.push(raw)
    await raw.until(() => raw.texts('ready').length === 1)
    await sender.next((f) => f.type === 'presence' && f.agent === agent)
    return raw
  }
  let sent = 0
  /** Sends `count` messages and waits for their acks. */
  const burst = async (count: number) => {
    for (let i = 0; i < count; i++) sender.send(text(sent + i))
    sent += count
    // A deleted cluster closes the sender too: its missing acks end the burst.
    await Promise.race([sender.next(() => sender.ofType('ack').length === sent, 30_000), sender.closed()])
  }
  return {cluster_id, admin_token, sender, reader, burst, sent: () => sent}
}

const payloads = (raw: RawClient) => raw.texts('message').map((f) => f.payload)
const expected = (count: number) => Array.from({length: count}, (_, i) => text(i))

it('keeps the stream well-formed while pings cross it both ways during bursts', async () => {
  // Long enough that a pong delayed by this busy process (client, server and pinger share one event loop)
  // still arrives before the next server ping: a missed pong closes the socket as idle (a full suite on two
  // busy cores once delayed one past 1 s).
  const r = await room({pingIntervalMs: 2000})
  const readers = [await r.reader('r1'), await r.reader('r2')]
  let pingsSent = 0
  const pinger = setInterval(() => {
    for (const raw of readers) raw.ping(Buffer.from(String(pingsSent)))
    pingsSent++
  }, 2)
  try {
    // Bursts until each reader has had server pings between data frames.
    for (let round = 0; round < 2000; round++) {
      await r.burst(30)
      // A pong that came too late closed a socket as idle: say so, rather than wait for frames that never come.
      expect(r.sender.closeCode, 'the relay closed the sender').toBeNull()
      expect(readers.map((raw) => raw.frames.some((f) => f.kind === 'close'))).toEqual([false, false])
      if (readers.every((raw) => raw.frames.filter((f) => f.kind === 'ping').length >= 3)) break
    }
  } finally {
    clearInterval(pinger)
  }
  for (const raw of readers) {
    await raw.until(() => raw.texts('message').length === r.sent())
    await raw.until(() => raw.frames.filter((f) => f.kind === 'pong').length === pingsSent)
    expect(raw.violations).toEqual([])
    expect(payloads(raw)).toEqual(expected(r.sent()))
    // Every ping answered once, in order, with its own payload.
    expect(raw.frames.flatMap((f) => (f.kind === 'pong' ? [f.data.toString()] : []))).toEqual(Array.from({length: pingsSent}, (_, i) => String(i)))
    expect(raw.frames.filter((f) => f.kind === 'ping').length).toBeGreaterThanOrEqual(3)
  }
})

it('sends nothing after its close frame when the client closes mid-burst', async () => {
  const r = await room()
  const leaver = await r.reader('leaver')
  const stayer = await r.reader('stayer')
  const closing = leaver.until(() => leaver.texts('message').length >= 40).then(() => leaver.close(1000))
  for (let i = 0; i < 10; i++) await r.burst(20)
  await closing
  await leaver.ended
  expect(leaver.violations).toEqual([])
  expect(leaver.frames.at(-1)).toEqual({kind: 'close', code: 1000})
  expect(leaver.bytesAfterClose).toBe(0)
  await stayer.until(() => stayer.texts('message').length === r.sent())
  expect(stayer.violations).toEqual([])
  expect(payloads(stayer)).toEqual(expected(r.sent()))
})

it('ends a deleted cluster with closed{deleted}, then the close frame, then nothing, mid-burst', async () => {
  const r = await room()
  const readers = [await r.reader('r1'), await r.reader('r2')]
  const pumping = (async () => {
    for (let i = 0; i < 200 && !readers.every((raw) => raw.frames.at(-1)?.kind === 'close'); i++) {
      await r.burst(10)
      if (r.sender.closeCode !== null) break
    }
  })()
  await readers[0].until(() => readers[0].texts('message').length >= 30)
  expect((await api(relay!.url, 'DELETE', `/v1/clusters/${r.cluster_id}`, undefined, {'x-cluster-token': r.admin_token})).status).toBe(200)
  for (const raw of readers) {
    await raw.ended
    expect(raw.violations).toEqual([])
    expect(raw.texts().at(-1)).toEqual({type: 'closed', reason: 'deleted'})
    expect(raw.frames.at(-1)).toEqual({kind: 'close', code: 4000})
    expect(raw.bytesAfterClose).toBe(0)
    // What arrived before is whole and in order.
    expect(payloads(raw)).toEqual(expected(payloads(raw).length))
  }
  await pumping
})

it('closes a slow consumer mid-burst with a well-formed stream and nothing after the close frame', async () => {
  const r = await room({highWaterBytes: 256 * 1024})
  const watcher = await r.reader('watcher')
  const slow = await r.reader('slow')
  slow.socket.pause()
  let gone = false
  const offline = r.sender.next((f) => f.type === 'presence' && f.agent === 'slow' && f.status === 'offline', 60_000).then(() => (gone = true))
  for (let i = 0; i < 400 && !gone; i++) await r.burst(16)
  await offline
  slow.socket.resume()
  await slow.ended
  expect(slow.violations).toEqual([])
  expect(slow.bytesAfterClose).toBe(0)
  expect(payloads(slow)).toEqual(expected(payloads(slow).length))
  const last = slow.frames.at(-1)
  // The peer may have been destroyed after the grace time before taking its close frame; if it came, it says why.
  if (last?.kind === 'close') {
    expect(last.code).toBe(1008)
    expect(slow.texts().at(-1)).toEqual({type: 'closed', reason: 'slow_consumer'})
  }
  await watcher.until(() => watcher.texts('message').length === r.sent())
  expect(watcher.violations).toEqual([])
})
