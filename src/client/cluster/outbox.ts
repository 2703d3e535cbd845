/**
 * Outgoing sends of `mesh cluster join`, in order. A text too long for one
 * frame (spec: cluster Limits — a frame is at most 64 KB, larger content is
 * chunked) goes out as stream chunks (spec: Message payload), paced so the
 * relay's per-socket message rate never cuts it (docs/cluster-cli.md,
 * Streams). Sends made while a stream is going out wait behind it.
 */
import {randomUUID} from 'node:crypto'
import {isMeshError, MeshError, tooLarge} from '../../lib/errors.js'
import {MAX_FRAME_BYTES, MAX_STREAM_BYTES, STREAM_CHUNK_INTERVAL_MS} from './constants.js'
import type {ClientFrame} from './frames.js'

/** Where frames go: a ClusterConnection, or the room view's source. */
export interface FrameSink {
  send(frame: ClientFrame): void
  /** Sends text as written; used for pipe lines that are already JSON frames. */
  sendRaw?(text: string): void
}

export interface OutboxOptions {
  sink: FrameSink
  /** A send that waited behind a stream and then failed (the connection closed, its queue was full). */
  onError?: (error: MeshError) => void
  chunkIntervalMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  newStreamId?: () => string
}

/** One frame to send: its JSON text and, when it is a stream chunk, that it must be paced. */
interface Outgoing {
  frame: ClientFrame
  raw?: string
  chunk: boolean
}

/** Bytes one code point takes inside a JSON string, as JSON.stringify writes it. */
function jsonBytes(codePoint: number): number {
  if (codePoint === 0x22 || codePoint === 0x5c) return 2
  if (codePoint < 0x20) return codePoint === 8 || codePoint === 9 || codePoint === 10 || codePoint === 12 || codePoint === 13 ? 2 : 6
  if (codePoint < 0x80) return 1
  if (codePoint < 0x800) return 2
  // A lone surrogate is written as \udXXX.
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 6
  return codePoint < 0x10000 ? 3 : 4
}

/**
 * Splits text into pieces whose JSON-encoded size is at most `maxBytes`,
 * only between code points (a character's UTF-8 bytes, or a surrogate
 * pair, are never split).
 */
export function splitText(text: string, maxBytes: number): string[] {
  if (maxBytes < 6) throw new RangeError('maxBytes must leave room for one escaped character')
  const pieces: string[] = []
  let start = 0
  let size = 0
  for (let index = 0; index < text.length; ) {
    const codePoint = text.codePointAt(index)!
    const bytes = jsonBytes(codePoint)
    if (size + bytes > maxBytes) {
      pieces.push(text.slice(start, index))
      start = index
      size = 0
    }
    size += bytes
    index += codePoint > 0xffff ? 2 : 1
  }
  if (start < text.length || pieces.length === 0) pieces.push(text.slice(start))
  return pieces
}

/**
 * The stream chunks of one text: a fresh stream id, `seq` from 0, `done`
 * on the last, each frame's JSON at most `maxFrameBytes`.
 */
export function streamFrames(text: string, options: {to?: string; stream: string; maxFrameBytes?: number}): ClientFrame[] {
  const limit = options.maxFrameBytes ?? MAX_FRAME_BYTES
  const frame = (seq: number, delta: string, done: boolean): ClientFrame => {
    const payload = {type: 'message', stream: options.stream, seq, delta, ...(done ? {done: true} : {})}
    return options.to === undefined ? {payload} : {to: options.to, payload}
  }
  // The envelope at its largest (the longest seq, done) leaves this much for the delta.
  const overhead = Buffer.byteLength(JSON.stringify(frame(Number.MAX_SAFE_INTEGER, '', true)))
  if (limit - overhead < 1024) throw tooLarge('frame_too_large', 'The recipient handle is too long to leave room for stream chunks')
  const pieces = splitText(text, limit - overhead)
  return pieces.map((delta, seq) => frame(seq, delta, seq === pieces.length - 1))
}

/** Sends in order; long text as paced stream chunks. */
export class Outbox {
  private readonly sink: FrameSink
  private readonly options: OutboxOptions
  private readonly interval: number
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly waiting: Outgoing[][] = []
  private pumping = false
  private closed = false
  private lastChunkAt = Number.NEGATIVE_INFINITY
  private idleWaiters: (() => void)[] = []

  constructor(options: OutboxOptions) {
    this.options = options
    this.sink = options.sink
    this.interval = options.chunkIntervalMs ?? STREAM_CHUNK_INTERVAL_MS
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  /** Whether sends are waiting behind a stream. */
  get busy(): boolean {
    return this.pumping || this.waiting.length > 0
  }

  /**
   * Sends a frame, or the chunks of its text when it is over 64 KB; answers
   * how many frames that takes (one `ack` comes back for each). Throws at
   * once when it cannot go at all: not text and over 64 KB, text over the
   * stream limit, or — when nothing waits — the sink refused it.
   */
  send(frame: ClientFrame): number {
    return this.enqueue(this.plan(frame))
  }

  /** Like send, for a frame already written as JSON: the text goes out as written when it fits in one frame. */
  sendRaw(text: string, frame: ClientFrame): number {
    if (this.sink.sendRaw && Buffer.byteLength(text) <= MAX_FRAME_BYTES) return this.enqueue([{frame, raw: text, chunk: false}])
    return this.send(frame)
  }

  /** Resolves once every waiting send was handed to the sink (or dropped). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Drops what waits; later sends are refused. */
  close(): void {
    this.closed = true
    this.waiting.length = 0
    if (!this.pumping) this.settle()
  }

  private plan(frame: ClientFrame): Outgoing[] {
    const text = JSON.stringify(frame)
    const bytes = Buffer.byteLength(text)
    if (bytes <= MAX_FRAME_BYTES) return [{frame, raw: text, chunk: false}]
    if (typeof frame.payload !== 'string') {
      throw tooLarge('frame_too_large', `Frame is ${bytes} bytes; the relay accepts at most ${MAX_FRAME_BYTES}, and only text is sent in chunks (send media as a url)`)
    }
    const textBytes = Buffer.byteLength(frame.payload)
    if (textBytes > MAX_STREAM_BYTES) throw tooLarge('stream_too_large', `Text is ${textBytes} bytes; a stream carries at most ${MAX_STREAM_BYTES} (send it as a media url)`)
    const stream = this.options.newStreamId?.() ?? randomUUID()
    return streamFrames(frame.payload, {to: frame.to, stream}).map((chunk) => ({frame: chunk, chunk: true}))
  }

  private enqueue(frames: Outgoing[]): number {
    if (this.closed) throw new MeshError('unavailable', 'connection_closed', 'The cluster connection is closed')
    if (this.busy) {
      this.waiting.push(frames)
      return frames.length
    }
    // Nothing waits: the first frame goes now, so a refusal reaches the caller.
    this.put(frames[0])
    if (frames.length > 1) {
      this.waiting.push(frames.slice(1))
      void this.pump()
    }
    return frames.length
  }

  private put(item: Outgoing) {
    if (item.raw !== undefined && this.sink.sendRaw) this.sink.sendRaw(item.raw)
    else this.sink.send(item.frame)
    if (item.chunk) this.lastChunkAt = this.now()
  }

  private async pump() {
    this.pumping = true
    try {
      while (this.waiting.length > 0 && !this.closed) {
        const frames = this.waiting.shift()!
        for (const item of frames) {
          // Paced well under the relay's per-socket message rate (STREAM_CHUNK_INTERVAL_MS).
          if (item.chunk) {
            const wait = this.lastChunkAt + this.interval - this.now()
            if (wait > 0) await this.sleep(wait)
          }
          if (this.closed) break
          try {
            this.put(item)
          } catch (error) {
            // The rest of this message cannot arrive whole; later sends still get their chance.
            this.options.onError?.(isMeshError(error) ? error : new MeshError('internal', 'send_failed', String(error)))
            break
          }
        }
      }
    } finally {
      this.pumping = false
      this.settle()
    }
  }

  private settle() {
    if (this.busy) return
    for (const resolve of this.idleWaiters.splice(0)) resolve()
  }
}
