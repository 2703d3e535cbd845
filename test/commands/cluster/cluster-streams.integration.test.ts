import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import {MAX_FRAME_BYTES} from '../../../src/client/cluster/constants.js'
import type {MessageFrame} from '../../../src/client/cluster/frames.js'
import {StreamReassembler} from '../../../src/client/cluster/streams.js'
import type {HostedServer} from '../../../src/http/index.js'
import {spawnCli} from '../../support/cli.js'
import {startRelay} from './harness.js'

let relay: HostedServer
let env: Record<string, string>
let client: ClusterClient

beforeAll(async () => {
  relay = await startRelay()
  env = {MESH_RELAY: relay.url}
  client = new ClusterClient({relay: relay.url})
})
afterAll(async () => {
  await relay.stop()
})

describe('mesh cluster join and streams', () => {
  it('sends 200 KB piped into join as stream chunks that reassemble to the same text; --assemble-streams prints it as one message', async () => {
    const {cluster_id: clusterId, token} = await client.create({name: 'long texts'})
    const join = (agent: string, ...flags: string[]) => spawnCli(['cluster', 'join', clusterId, '--token', token, '--agent', agent, '--json', ...flags], {env})

    // carl: the CLI, assembling.
    const carl = join('carl', '--assemble-streams')
    expect(await carl.nextJson()).toMatchObject({type: 'ready', you: 'carl'})
    // bob: the client library, seeing every chunk as the relay delivers it.
    const bob = client.connection(clusterId, {agent: 'bob', token})
    await bob.connect()
    const chunks: MessageFrame[] = []
    bob.on('message', (frame) => chunks.push(frame))

    // Multi-byte characters (2, 3 and 4 bytes) and characters JSON escapes, on one line of over 200 KB.
    const text = 'ok — naïve café, 東京, 🚀🎉, "quotes" and \\backslashes\\\t'.repeat(3_100)
    expect(Buffer.byteLength(text)).toBeGreaterThan(200_000)
    const ada = join('ada')
    ada.child.stdin.end(text + '\n')
    expect(await ada.nextJson()).toMatchObject({type: 'ready', you: 'ada'})
    const adaFrames: Record<string, any>[] = []
    for (;;) {
      const line = await ada.nextLine().catch(() => undefined)
      if (line === undefined) break
      adaFrames.push(JSON.parse(line))
    }
    expect(await ada.exited).toBe(0)
    expect(ada.stderr()).not.toContain('not sent')
    expect(adaFrames.filter((frame) => frame.type === 'error')).toEqual([])

    await vi.waitFor(() => expect((chunks.at(-1)?.payload as {done?: boolean})?.done).toBe(true))
    const payloads = chunks.map((frame) => frame.payload as {type: string; stream: string; seq: number; delta: string; done?: boolean})
    expect(payloads.length).toBeGreaterThanOrEqual(4)
    expect(adaFrames.filter((frame) => frame.type === 'ack')).toHaveLength(payloads.length)
    expect(new Set(payloads.map((payload) => payload.stream)).size).toBe(1)
    expect(payloads.map((payload) => payload.seq)).toEqual(payloads.map((_, seq) => seq))
    expect(payloads.every((payload) => payload.type === 'message')).toBe(true)
    // What ada sent for each chunk fits the relay's frame limit.
    for (const payload of payloads) expect(Buffer.byteLength(JSON.stringify({payload}))).toBeLessThanOrEqual(MAX_FRAME_BYTES)
    expect(payloads.map((payload) => payload.delta).join('')).toBe(text)
    const streams = new StreamReassembler()
    expect(chunks.flatMap((frame) => streams.push(frame)!).at(-1)).toMatchObject({state: 'done', text})

    // Presence lines (bob, ada) come first; the next message is the whole stream.
    let assembled = await carl.nextJson()
    while (assembled.type !== 'message') assembled = await carl.nextJson()
    expect(assembled).toMatchObject({type: 'message', from: 'ada', to: null, payload: {type: 'message', text}, stream: {id: payloads[0].stream, chunks: payloads.length, complete: true}})
    carl.child.stdin.end()
    expect(await carl.exited).toBe(0)
    bob.close()
  })
})
