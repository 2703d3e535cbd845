import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {EVENTS_HIGH_WATER_BYTES} from '../../../src/daemon/http/events-socket.js'
import {startHarness, type DaemonHarness} from '../harness.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const EVENT_BYTES = 16 * 1024
/** Far beyond 1 MB plus what the kernel's socket buffers can hold: if the daemon kept buffering, this is what it would hold. */
const PUBLISH_CAP_BYTES = 64 * 1024 * 1024

async function subscribe(daemon: DaemonHarness): Promise<WebSocket> {
  const ws = new WebSocket(daemon.url.replace('http', 'ws') + '/events', {headers: {authorization: `Bearer ${daemon.token}`}})
  await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject))
  return ws
}

describe('/events with a subscriber that stops reading', () => {
  it('drops that subscriber once 1 MB piles up for it, while the others keep receiving everything', async () => {
    harness = await startHarness()
    const {events, debug} = harness.running.daemon.context
    const good = await subscribe(harness)
    let goodReceived = 0
    const goodMarker = new Promise<void>((resolve) =>
      good.on('message', (data) => {
        goodReceived++
        if (JSON.parse(String(data)).type === 'test.marker') resolve()
      }),
    )
    const slow = await subscribe(harness)
    const slowTypes: string[] = []
    slow.on('message', (data) => slowTypes.push(JSON.parse(String(data)).type))
    const slowClosed = new Promise<void>((resolve) => slow.on('close', () => resolve()))
    // The client stops reading: the TCP window fills and the daemon's side of the socket starts to buffer.
    ;(slow as unknown as {_socket: {pause(): void}})._socket.pause()

    const dropped = () => debug.tail({lastSecs: 600, tags: ['events.slow-subscriber']}).events
    const padding = 'x'.repeat(EVENT_BYTES)
    let published = 0
    let publishedBytes = 0
    while (dropped().length === 0) {
      if (publishedBytes > PUBLISH_CAP_BYTES) throw new Error(`the slow subscriber was never dropped (${publishedBytes} bytes published)`)
      for (let i = 0; i < 8; i++) {
        events.publish('test.load', {i: published, padding})
        published++
        publishedBytes += EVENT_BYTES
      }
      // Let the sockets move (the good subscriber reads in this same process).
      await new Promise((resolve) => setImmediate(resolve))
    }

    // Dropped near the high-water mark: what it held is bounded by 1 MB plus one event, not by what was published.
    const held = Number(/holding (\d+) unsent bytes/.exec(dropped()[0].msg)?.[1])
    expect(held).toBeGreaterThan(EVENTS_HIGH_WATER_BYTES)
    expect(held).toBeLessThanOrEqual(EVENTS_HIGH_WATER_BYTES + 2 * EVENT_BYTES)
    expect(dropped()).toHaveLength(1)

    events.publish('test.marker', {})
    await goodMarker
    expect(goodReceived).toBe(published + 1)

    // The slow client, reading again, finds its connection closed and never got what came after the drop.
    ;(slow as unknown as {_socket: {resume(): void}})._socket.resume()
    await slowClosed
    expect(slowTypes).not.toContain('test.marker')
    expect(slowTypes.length).toBeLessThan(published)
    good.close()
  })
})
