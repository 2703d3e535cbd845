import {describe, expect, it} from 'vitest'
import {MAX_FRAME_BYTES, MAX_STREAM_BYTES, STREAM_CHUNK_INTERVAL_MS} from '../../../src/client/cluster/constants.js'
import type {ClientFrame} from '../../../src/client/cluster/frames.js'
import {Outbox, splitText, streamFrames} from '../../../src/client/cluster/outbox.js'
import {MeshError} from '../../../src/lib/errors.js'

/** The error a call throws; fails the test if it returns. */
function thrown(call: () => unknown): MeshError {
  try {
    call()
  } catch (error) {
    return error as MeshError
  }
  throw new Error('expected a throw')
}

const bytes = (frame: unknown) => Buffer.byteLength(JSON.stringify(frame))
const payloadOf = (frame: ClientFrame) => frame.payload as {type: string; stream: string; seq: number; delta: string; done?: true}

/** Text mixing 1-, 2-, 3- and 4-byte characters and characters JSON escapes. */
function mixedText(length: number): string {
  const alphabet = ['a', 'é', '€', '😀', '"', '\\', '\t', '\u0001', '文', ' ']
  let text = ''
  for (let index = 0; text.length < length; index++) text += alphabet[(index * 7) % alphabet.length]
  return text
}

describe('splitText', () => {
  it('cuts between code points, each piece within the JSON byte budget', () => {
    const text = mixedText(50_000)
    const pieces = splitText(text, 1000)
    expect(pieces.join('')).toBe(text)
    for (const piece of pieces) {
      expect(Buffer.byteLength(JSON.stringify(piece)) - 2).toBeLessThanOrEqual(1000)
      // No piece ends inside a surrogate pair.
      expect(piece).not.toMatch(/[\ud800-\udbff]$/)
      expect(piece).not.toMatch(/^[\udc00-\udfff]/)
    }
    expect(splitText('😀😀😀', 8)).toEqual(['😀😀', '😀'])
    expect(splitText('', 10)).toEqual([''])
  })
})

describe('streamFrames', () => {
  it('makes chunks with one stream id, seq from 0, done on the last, each frame within 64 KB', () => {
    const text = mixedText(200_000)
    const frames = streamFrames(text, {stream: 'st-1', to: 'bob'})
    expect(frames.length).toBeGreaterThan(3)
    frames.forEach((frame, seq) => {
      expect(bytes(frame)).toBeLessThanOrEqual(MAX_FRAME_BYTES)
      expect(frame.to).toBe('bob')
      expect(payloadOf(frame)).toMatchObject({type: 'message', stream: 'st-1', seq})
      expect(payloadOf(frame).done).toBe(seq === frames.length - 1 ? true : undefined)
    })
    expect(frames.map((frame) => payloadOf(frame).delta).join('')).toBe(text)
    // Chunks are filled: all but the last come close to the limit.
    expect(bytes(frames[0])).toBeGreaterThan(MAX_FRAME_BYTES - 100)
    expect(streamFrames('short', {stream: 'x'})).toEqual([{payload: {type: 'message', stream: 'x', seq: 0, delta: 'short', done: true}}])
  })
})

/** A sink that records, with a clock the outbox's sleeps move forward. */
function harness(options: {failOn?: (frame: ClientFrame) => boolean} = {}) {
  const clock = {now: 1_000}
  const sent: {at: number; frame: ClientFrame}[] = []
  const errors: MeshError[] = []
  const sleeps: number[] = []
  let streams = 0
  const sink = {
    send(frame: ClientFrame) {
      if (options.failOn?.(frame)) throw new MeshError('rate_limited', 'send_queue_full', 'queue full')
      sent.push({at: clock.now, frame})
    },
  }
  const outbox = new Outbox({
    sink,
    now: () => clock.now,
    sleep: async (ms) => {
      sleeps.push(ms)
      clock.now += ms
    },
    newStreamId: () => `stream-${streams++}`,
    onError: (error) => errors.push(error),
  })
  return {outbox, sent, errors, sleeps, clock}
}

describe('Outbox', () => {
  it('sends a frame that fits at once, and text over 64 KB as chunks paced apart', async () => {
    const {outbox, sent, sleeps} = harness()
    expect(outbox.send({payload: 'hi'})).toBe(1)
    expect(sent).toHaveLength(1)
    expect(outbox.busy).toBe(false)

    const text = 'x'.repeat(3 * MAX_FRAME_BYTES)
    const count = outbox.send({to: 'bob', payload: text})
    expect(count).toBe(4)
    // The first chunk leaves at once, the rest wait for their turn.
    expect(sent).toHaveLength(2)
    expect(outbox.busy).toBe(true)
    await outbox.idle()
    expect(sent).toHaveLength(5)
    const chunks = sent.slice(1)
    expect(chunks.map(({frame}) => payloadOf(frame).seq)).toEqual([0, 1, 2, 3])
    expect(chunks.map(({frame}) => payloadOf(frame).delta).join('')).toBe(text)
    // Never two chunks closer than the interval: the relay's rate limit is not hit.
    for (let index = 1; index < chunks.length; index++) expect(chunks[index].at - chunks[index - 1].at).toBeGreaterThanOrEqual(STREAM_CHUNK_INTERVAL_MS)
    expect(sleeps).toEqual([STREAM_CHUNK_INTERVAL_MS, STREAM_CHUNK_INTERVAL_MS, STREAM_CHUNK_INTERVAL_MS])
  })

  it('keeps order: sends made during a stream wait behind it, and back-to-back streams stay paced', async () => {
    const {outbox, sent, clock} = harness()
    outbox.send({payload: 'a'.repeat(2 * MAX_FRAME_BYTES)})
    outbox.send({payload: 'after'})
    outbox.send({payload: 'b'.repeat(2 * MAX_FRAME_BYTES)})
    await outbox.idle()
    const shape = sent.map(({frame}) => (typeof frame.payload === 'string' ? frame.payload : `${payloadOf(frame).stream}#${payloadOf(frame).seq}`))
    expect(shape).toEqual(['stream-0#0', 'stream-0#1', 'stream-0#2', 'after', 'stream-1#0', 'stream-1#1', 'stream-1#2'])
    const chunkTimes = sent.filter(({frame}) => typeof frame.payload !== 'string').map(({at}) => at)
    for (let index = 1; index < chunkTimes.length; index++) expect(chunkTimes[index] - chunkTimes[index - 1]).toBeGreaterThanOrEqual(STREAM_CHUNK_INTERVAL_MS)
    expect(clock.now).toBe(1_000 + 5 * STREAM_CHUNK_INTERVAL_MS)
  })

  it('refuses what cannot go at all, at once', () => {
    const {outbox, sent} = harness()
    expect(thrown(() => outbox.send({payload: {blob: 'x'.repeat(MAX_FRAME_BYTES)}}))).toMatchObject({code: 'frame_too_large'})
    expect(thrown(() => outbox.send({payload: 'x'.repeat(MAX_STREAM_BYTES + 1)}))).toMatchObject({code: 'stream_too_large', kind: 'too_large'})
    expect(sent).toEqual([])
  })

  it('reports a chunk the sink refuses, drops the rest of that text, and goes on with later sends', async () => {
    let chunksSeen = 0
    const {outbox, sent, errors} = harness({failOn: (frame) => typeof frame.payload !== 'string' && ++chunksSeen === 2})
    outbox.send({payload: 'x'.repeat(3 * MAX_FRAME_BYTES)})
    outbox.send({payload: 'later'})
    await outbox.idle()
    expect(errors.map((error) => error.code)).toEqual(['send_queue_full'])
    expect(sent.map(({frame}) => (typeof frame.payload === 'string' ? frame.payload : payloadOf(frame).seq))).toEqual([0, 'later'])
  })

  it('sends a raw JSON line as written when it fits, and streams its text payload when it does not', async () => {
    const raw: string[] = []
    const frames: ClientFrame[] = []
    const outbox = new Outbox({sink: {send: (frame) => frames.push(frame), sendRaw: (text) => raw.push(text)}, sleep: async () => {}})
    outbox.sendRaw('{"payload": 1.50}', {payload: 1.5})
    expect(raw).toEqual(['{"payload": 1.50}'])
    const long = 'y'.repeat(MAX_FRAME_BYTES)
    expect(outbox.sendRaw(JSON.stringify({payload: long}), {payload: long})).toBe(2)
    await outbox.idle()
    expect(raw).toHaveLength(1)
    expect(frames.map((frame) => payloadOf(frame).delta).join('')).toBe(long)
  })

  it('drops what waits once closed, and refuses later sends', async () => {
    const {outbox, sent} = harness()
    outbox.send({payload: 'z'.repeat(3 * MAX_FRAME_BYTES)})
    outbox.close()
    await outbox.idle()
    expect(sent).toHaveLength(1)
    expect(thrown(() => outbox.send({payload: 'hi'}))).toMatchObject({code: 'connection_closed'})
  })
})
