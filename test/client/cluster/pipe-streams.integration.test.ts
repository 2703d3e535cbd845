import {PassThrough} from 'node:stream'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import type {ClusterConnection} from '../../../src/client/cluster/connection.js'
import {MAX_FRAME_BYTES} from '../../../src/client/cluster/constants.js'
import type {MessageFrame} from '../../../src/client/cluster/frames.js'
import {runPipe, type PipeEnd, type PipeOptions} from '../../../src/client/cluster/pipe.js'
import {StreamReassembler} from '../../../src/client/cluster/streams.js'
import type {HostedServer} from '../../../src/http/index.js'
import {createLocalBus} from '../../../src/bus/index.js'
import {createMemoryClusterStore, createRelay} from '../../../src/cluster/index.js'
import {serve} from '../../../src/http/index.js'
import {silentLogger} from '../../../src/lib/log.js'
import {startRelay} from '../../commands/cluster/harness.js'

/** runPipe on in-memory streams: what it prints, line by line. */
function pipe(connection: ClusterConnection, options: Partial<PipeOptions> = {}) {
  const input = new PassThrough()
  const output = new PassThrough()
  const notices = new PassThrough()
  const printed: Record<string, any>[] = []
  let noticeText = ''
  let buffer = ''
  output.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    const lines = buffer.split('\n')
    buffer = lines.pop()!
    for (const line of lines) printed.push(JSON.parse(line))
  })
  notices.setEncoding('utf8').on('data', (chunk: string) => (noticeText += chunk))
  const ended: Promise<PipeEnd> = runPipe({connection, input, output, notices, ...options})
  return {input, printed, ended, notices: () => noticeText, messages: () => printed.filter((frame) => frame.type === 'message')}
}

/** A stream chunk as a client frame. */
const chunk = (stream: string, seq: number, delta: string, done = false) => ({payload: {type: 'message', stream, seq, delta, ...(done ? {done: true} : {})}})

describe('pipe mode and streams (real relay)', () => {
  let server: HostedServer
  let client: ClusterClient
  let clusterId: string
  let token: string
  const open: ClusterConnection[] = []
  const member = async (agent: string) => {
    const connection = client.connection(clusterId, {agent, token})
    open.push(connection)
    return connection
  }
  beforeEach(async () => {
    server = await startRelay()
    client = new ClusterClient({relay: server.url})
    ;({cluster_id: clusterId, token} = await client.create({name: 'streams'}))
  })
  afterEach(async () => {
    for (const connection of open.splice(0)) connection.close()
    await server.stop()
  })

  /** bob joins; resolves once the pipe printed `ready`. */
  async function listener(options: Partial<PipeOptions> = {}) {
    const session = pipe(await member('bob'), options)
    await vi.waitFor(() => expect(session.printed[0]).toMatchObject({type: 'ready'}))
    const ada = await member('ada')
    await ada.connect()
    return {session, ada}
  }

  it('without --assemble-streams, prints every chunk as the relay sent it', async () => {
    const {session, ada} = await listener()
    ada.send(chunk('s1', 0, 'Hello, '))
    ada.send(chunk('s1', 1, 'world', true))
    await vi.waitFor(() => expect(session.messages()).toHaveLength(2))
    expect(session.messages().map((frame) => frame.payload)).toEqual([chunk('s1', 0, 'Hello, ').payload, chunk('s1', 1, 'world', true).payload])
    session.input.end()
    expect(await session.ended).toEqual({reason: 'input_ended'})
  })

  it('with assembleStreams, prints one message per finished stream, in the order streams end', async () => {
    const {session, ada} = await listener({assembleStreams: true})
    ada.send(chunk('s1', 1, 'world'))
    ada.send(chunk('s1', 0, 'Hello, '))
    ada.send({payload: 'a plain line'})
    ada.send(chunk('s1', 1, 'world'))
    ada.send(chunk('cut', 0, 'never finished'))
    ada.send(chunk('s1', 2, '!', true))
    await vi.waitFor(() => expect(session.messages()).toHaveLength(2))
    expect(session.messages()).toEqual([
      expect.objectContaining({from: 'ada', payload: 'a plain line'}),
      {type: 'message', from: 'ada', from_did: null, to: null, ts: expect.any(String), payload: {type: 'message', text: 'Hello, world!'}, stream: {id: 's1', chunks: 3, complete: true}},
    ])
    // Once the session ends, a stream still open is printed as incomplete rather than lost.
    session.input.end()
    await session.ended
    expect(session.messages().at(-1)).toMatchObject({payload: {text: 'never finished'}, stream: {id: 'cut', complete: false, reason: 'closed', missing: 0}})
    expect(session.printed.filter((frame) => frame.type === 'ack')).toHaveLength(0)
  })

  it('with assembleStreams, gives up a stream that went silent', async () => {
    const clock = {now: 0}
    const streams = new StreamReassembler({now: () => clock.now, limits: {idleTimeoutMs: 60_000}})
    const {session, ada} = await listener({assembleStreams: true, streams, sweepMs: 10})
    ada.send(chunk('s1', 0, 'first '))
    ada.send(chunk('s1', 2, 'third'))
    await vi.waitFor(() => expect(streams.openCount).toBe(1))
    expect(session.messages()).toEqual([])
    clock.now += 60_000
    await vi.waitFor(() => expect(session.messages()).toHaveLength(1))
    expect(session.messages()[0]).toMatchObject({payload: {text: 'first third'}, stream: {complete: false, reason: 'idle', missing: 1}})
    session.input.end()
    await session.ended
  })

  it('sends a line over 64 KB as chunks that reassemble to the same text, each frame under the limit', async () => {
    const bob = await member('bob')
    await bob.connect()
    const heard: MessageFrame[] = []
    bob.on('message', (frame) => heard.push(frame))
    const sent: string[] = []
    const ada = await member('ada')
    const sendRaw = ada.sendRaw.bind(ada)
    ada.sendRaw = (text: string) => {
      sent.push(text)
      sendRaw(text)
    }
    const session = pipe(ada, {chunkIntervalMs: 5})
    const text = 'Grüße aus 東京 🎉 "quoted" \\ tab\t'.repeat(6_000)
    expect(Buffer.byteLength(text)).toBeGreaterThan(200_000)
    session.input.write(text + '\n')
    session.input.write('after the stream\n')
    session.input.end()
    expect(await session.ended).toEqual({reason: 'input_ended'})

    await vi.waitFor(() => expect(heard.at(-1)?.payload).toBe('after the stream'))
    const chunks = heard.slice(0, -1)
    expect(chunks.length).toBeGreaterThanOrEqual(4)
    const streams = new StreamReassembler()
    const assembled = chunks.flatMap((frame) => streams.push(frame)!)
    expect(assembled.at(-1)).toMatchObject({state: 'done', text, chunks: chunks.length})
    for (const raw of sent) expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(MAX_FRAME_BYTES)
    // Every chunk was acknowledged: none was refused as too large or rate limited.
    expect(session.printed.filter((frame) => frame.type === 'ack')).toHaveLength(chunks.length + 1)
    expect(session.printed.filter((frame) => frame.type === 'error')).toEqual([])
  })

  it('refuses a line over the stream limit, and a JSON line whose big payload is not text, with a note', async () => {
    const ada = await member('ada')
    const session = pipe(ada)
    await vi.waitFor(() => expect(session.printed[0]).toMatchObject({type: 'ready'}))
    session.input.write('x'.repeat(1024 * 1024 + 1) + '\n')
    session.input.write(JSON.stringify({payload: {blob: 'y'.repeat(MAX_FRAME_BYTES)}}) + '\n')
    session.input.end()
    await session.ended
    expect(session.notices()).toContain('line not sent: Text is 1048577 bytes; a stream carries at most 1048576')
    expect(session.notices()).toContain('only text is sent in chunks')
  })
})

describe('pacing of stream chunks against a relay with a tight message rate', () => {
  let server: HostedServer
  let client: ClusterClient
  const open: ClusterConnection[] = []
  beforeEach(async () => {
    // 5 messages per 100 ms: a burst of a 1 MiB text's chunks is over it, 20 chunks a second is not.
    const relay = createRelay({store: createMemoryClusterStore(), bus: createLocalBus(), logger: silentLogger, publicUrl: 'http://127.0.0.1', limits: {messagesPerWindow: 5, messageWindowMs: 100}})
    server = await serve({services: [relay], logger: silentLogger, port: 0})
    client = new ClusterClient({relay: server.url})
  })
  afterEach(async () => {
    for (const connection of open.splice(0)) connection.close()
    await server.stop()
  })

  async function sendLongText(chunkIntervalMs?: number) {
    const {cluster_id: clusterId, token} = await client.create({name: 'paced'})
    const bob = client.connection(clusterId, {agent: 'bob', token})
    const ada = client.connection(clusterId, {agent: 'ada', token})
    open.push(bob, ada)
    await bob.connect()
    const streams = new StreamReassembler()
    const done: string[] = []
    bob.on('message', (frame) => streams.push(frame)?.forEach((stream) => stream.state === 'done' && done.push(stream.text)))
    const session = pipe(ada, {chunkIntervalMs})
    const text = 'ü'.repeat(500_000)
    session.input.end(text + '\n')
    await session.ended
    return {session, text, done}
  }

  it('sent in one burst, chunks are cut by rate_limited', async () => {
    const {session, done} = await sendLongText(0)
    expect(session.printed.filter((frame) => frame.type === 'error').map((frame) => frame.detail)).toContainEqual(expect.stringMatching(/^rate_limited:/))
    expect(done).toEqual([])
  })

  it('paced (the default), every chunk arrives and the text is whole', async () => {
    const {session, text, done} = await sendLongText()
    expect(session.printed.filter((frame) => frame.type === 'error')).toEqual([])
    expect(session.printed.filter((frame) => frame.type === 'ack').length).toBeGreaterThan(10)
    await vi.waitFor(() => expect(done).toEqual([text]))
  })
})
