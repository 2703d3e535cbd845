import {Writable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import * as ws from 'ws'

/** ws's frame parser: exported by the package, absent from @types/ws. */
interface FrameParser {
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void
  on(event: 'error', listener: (error: Error) => void): void
  write(chunk: Buffer): void
}
const {Receiver} = ws as unknown as {Receiver: new (options: {isServer: boolean}) => FrameParser}
import {Outbox, textFrame, type Corkable} from '../../../src/cluster/ws/wire.js'

/** Decodes server frames with ws's own client-side parser. */
function parse(bytes: Buffer): string[] {
  const messages: string[] = []
  const receiver = new Receiver({isServer: false})
  receiver.on('message', (data: Buffer, isBinary: boolean) => {
    expect(isBinary).toBe(false)
    messages.push(data.toString())
  })
  receiver.on('error', (error: Error) => {
    throw error
  })
  receiver.write(bytes)
  return messages
}

describe('textFrame', () => {
  it('frames payloads at every length-field boundary so a WebSocket client reads them back', () => {
    // 7-bit length up to 125, 16-bit up to 65535, 64-bit beyond (RFC 6455 §5.2).
    for (const length of [0, 1, 125, 126, 127, 65_535, 65_536, 131_072]) {
      const json = Buffer.from('x'.repeat(length))
      const frame = textFrame(json)
      expect(frame.length).toBe(length + (length <= 125 ? 2 : length <= 65_535 ? 4 : 10))
      expect(frame[0]).toBe(0x81)
      expect(parse(frame)).toEqual([json.toString()])
    }
  })
  it('keeps multi-byte UTF-8 intact and frames back to back in order', () => {
    const texts = ['{"payload":"héllo ✓ 🚀"}', 'a'.repeat(300), '']
    expect(parse(Buffer.concat(texts.map((t) => textFrame(Buffer.from(t)))))).toEqual(texts)
  })
})

/** A writable that records each write or writev call it receives. */
function recorder(): Corkable & {calls: string[][]} {
  const calls: string[][] = []
  const socket = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()])
      done()
    },
    writev(chunks, done) {
      calls.push(chunks.map(({chunk}) => (chunk as Buffer).toString()))
      done()
    },
  })
  return {socket, corked: false, calls}
}

const nextTick = () => new Promise((resolve) => setImmediate(resolve))

describe('Outbox', () => {
  it('hands one socket all writes of a tick in one call, in order, and corks it once', async () => {
    const outbox = new Outbox()
    const a = recorder()
    const b = recorder()
    for (const word of ['1', '2', '3']) {
      outbox.hold(a)
      a.socket.write(word)
      outbox.hold(b)
      b.socket.write(word + word)
    }
    expect(a.socket.writableCorked).toBe(1)
    expect(a.calls).toEqual([])
    await nextTick()
    expect(a.calls).toEqual([['1', '2', '3']])
    expect(b.calls).toEqual([['11', '22', '33']])
    expect(a.corked || b.corked).toBe(false)
    // The next tick is a new batch.
    outbox.hold(a)
    a.socket.write('4')
    await nextTick()
    expect(a.calls).toEqual([['1', '2', '3'], ['4']])
  })
  it('lets go of one socket early and corks it again for the rest of the tick', async () => {
    const outbox = new Outbox()
    const a = recorder()
    outbox.hold(a)
    a.socket.write('1')
    outbox.release(a)
    expect(a.calls).toEqual([['1']])
    expect(a.socket.writableCorked).toBe(0)
    outbox.hold(a)
    a.socket.write('2')
    a.socket.write('3')
    expect(a.calls).toEqual([['1']])
    await nextTick()
    expect(a.calls).toEqual([['1'], ['2', '3']])
    expect(a.socket.writableCorked).toBe(0)
  })
  it('flushes at once when asked (node stop)', () => {
    const outbox = new Outbox()
    const a = recorder()
    outbox.hold(a)
    a.socket.write('bye')
    outbox.flush()
    expect(a.calls).toEqual([['bye']])
  })
})
