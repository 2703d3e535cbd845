/**
 * The relay's outbound fast path (ws/wire.ts): frames are framed once per
 * broadcast and each socket's writes of a tick leave together. What a
 * client sees must not change: every frame intact, per-socket order kept,
 * direct messages and acks interleaved exactly as sent.
 */
import {afterEach, expect, it} from 'vitest'
import {Client, createCluster, join, startRelay, type TestRelay} from './helpers.js'

let relay: TestRelay | undefined
const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay?.stop()
})

// Payload sizes around the WebSocket length-field boundaries (125 / 65535 bytes of frame) up to the 64 KB limit.
const SIZES = [2, 60, 100, 126, 1000, 32_000, 65_400, 65_500, 64 * 1024 - 10]

it('delivers bursts of mixed sizes from two senders intact and in each sender order, directs and acks included', async () => {
  relay = await startRelay({limits: {messagesPerWindow: 1_000_000}})
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const join_ = async (agent: string) => {
    const client = await join(relay!.url, cluster_id, {agent})
    clients.push(client)
    return client
  }
  const [a, b] = [await join_('a'), await join_('b')]
  const readers = [await join_('r1'), await join_('r2'), await join_('r3')]
  await a.next((f) => f.type === 'presence' && f.agent === 'r3')
  await b.next((f) => f.type === 'presence' && f.agent === 'r3')

  const ROUNDS = 40
  const text = (from: string, i: number) => `${from}${i}:` + 'é'.repeat(SIZES[i % SIZES.length] / 2)
  for (let i = 0; i < ROUNDS; i++) {
    a.send(text('a', i))
    b.send(text('b', i))
    // Every 5th: a direct message to r2, between the broadcasts.
    if (i % 5 === 0) a.send({to: 'r2', payload: `direct ${i}`})
  }
  const directs = Math.ceil(ROUNDS / 5)
  for (const reader of readers) {
    const expected = 2 * ROUNDS + (reader === readers[1] ? directs : 0)
    await reader.next(() => reader.ofType('message').length === expected, 30_000)
    const messages = reader.ofType('message')
    const from = (sender: string) => messages.filter((f) => f.from === sender && f.to === null).map((f) => f.payload)
    expect(from('a')).toEqual(Array.from({length: ROUNDS}, (_, i) => text('a', i)))
    expect(from('b')).toEqual(Array.from({length: ROUNDS}, (_, i) => text('b', i)))
    if (reader === readers[1]) {
      // a's direct i sits after a's broadcast i and before a's broadcast i + 1.
      const aOnly = messages.filter((f) => f.from === 'a').map((f) => f.payload)
      const position = (payload: unknown) => aOnly.indexOf(payload)
      for (let i = 0; i < ROUNDS; i += 5) {
        expect(position(`direct ${i}`)).toBe(position(text('a', i)) + 1)
      }
    }
  }
  // Acks follow the sender's sends one for one, in order: broadcasts count 4 visible peers, directs 1.
  await a.next(() => a.ofType('ack').length === ROUNDS + directs)
  const acks = a.ofType('ack').map((f) => `${f.to}:${f.delivered}`)
  const expectedAcks = Array.from({length: ROUNDS}, (_, i) => (i % 5 === 0 ? ['null:4', 'r2:1'] : ['null:4'])).flat()
  expect(acks).toEqual(expectedAcks)
  expect([...a.frames, ...b.frames, ...readers.flatMap((r) => r.frames)].filter((f) => f.type === 'error')).toEqual([])
})
