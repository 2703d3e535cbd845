/**
 * Reassembly of incoming stream chunks. spec: cluster "Message
 * payload" — a chunk is `{type: "message", stream: <id>, seq, delta,
 * done?: true}` and the receiver buffers deltas per (from, stream) in `seq`
 * order until `done`. Memory stays bounded (docs/cluster-cli.md, Streams):
 * open streams, bytes and held chunks per stream are capped, and a stream
 * silent for too long is given up. A stream given up is reported as
 * incomplete with what arrived, never dropped without a word.
 */
import {MAX_FINISHED_STREAMS, MAX_HELD_CHUNKS, MAX_OPEN_STREAMS, MAX_STREAM_BYTES, STREAM_IDLE_TIMEOUT_MS} from './constants.js'
import type {MessageFrame} from './frames.js'

/** The fields of one stream chunk. */
export interface StreamChunk {
  stream: string | number
  seq: number
  delta: string
  done: boolean
}

/** Why a stream was given up before its `done`. */
export type StreamEndReason = 'idle' | 'too_large' | 'out_of_order' | 'too_many_streams' | 'disconnected' | 'closed'

/** A stream as assembled so far: a fresh object at every change. */
export interface AssembledStream {
  /** Unique within one reassembler: tells apart two streams that reuse an id. */
  serial: number
  from: string
  from_did: string | null
  to: string | null
  stream: string | number
  /** `ts` of the first chunk that arrived. */
  ts: string
  /** Deltas in `seq` order: while open, up to the first gap; once incomplete, every delta that arrived (gaps skipped). */
  text: string
  /** Chunks taken (repeats not counted). */
  chunks: number
  state: 'open' | 'done' | 'incomplete'
  /** Why an incomplete stream was given up. */
  reason?: StreamEndReason
  /** For an incomplete stream: chunks missing below the highest `seq` seen. */
  missing?: number
  /** The relay's resolved hashtags of the chunks (`board`, `ref`), in arrival order. */
  board: unknown[]
  ref: unknown[]
}

export interface StreamLimits {
  maxOpenStreams: number
  /** UTF-8 bytes of deltas per stream, held chunks included. */
  maxStreamBytes: number
  maxHeldChunks: number
  idleTimeoutMs: number
  maxFinished: number
}

export interface StreamReassemblerOptions {
  now?: () => number
  limits?: Partial<StreamLimits>
}

interface OpenStream {
  view: AssembledStream
  /** The next `seq` the text waits for. */
  next: number
  /** Chunks that arrived ahead of a gap, by `seq`. */
  held: Map<number, string>
  /** `seq` of the chunk that carried `done`. */
  finalSeq?: number
  bytes: number
  lastAt: number
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The chunk a payload carries, or undefined when it is not a stream chunk (then it is an ordinary message). */
export function streamChunkOf(payload: unknown): StreamChunk | undefined {
  if (!isObject(payload)) return undefined
  // The spec writes `type: message`; a chunk that leaves `type` out is still plainly a chunk.
  if (payload.type !== undefined && payload.type !== 'message') return undefined
  const {stream, seq, delta} = payload
  const done = payload.done === true
  if (!(typeof stream === 'string' && stream !== '') && !(typeof stream === 'number' && Number.isFinite(stream))) return undefined
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined
  if (typeof delta !== 'string' && !(done && delta === undefined)) return undefined
  return {stream, seq, delta: delta ?? '', done}
}

const collect = (into: unknown[], value: unknown) => {
  if (value === undefined || value === null) return
  if (Array.isArray(value)) into.push(...value)
  else into.push(value)
}

/**
 * Joins stream chunks per (from, stream) in `seq` order. `push` takes every
 * `message` frame and answers undefined for one that is not a chunk, else
 * the streams it changed; `expire` gives up silent streams (call it now and
 * then); `closeAll` gives up every open stream.
 */
export class StreamReassembler {
  private readonly limits: StreamLimits
  private readonly now: () => number
  /** Least recently active first (re-inserted at every chunk). */
  private readonly open = new Map<string, OpenStream>()
  /** Streams that ended, with when, oldest first: their late or repeated chunks are ignored. */
  private readonly finished = new Map<string, number>()
  private serial = 0

  constructor(options: StreamReassemblerOptions = {}) {
    this.now = options.now ?? Date.now
    this.limits = {
      maxOpenStreams: MAX_OPEN_STREAMS,
      maxStreamBytes: MAX_STREAM_BYTES,
      maxHeldChunks: MAX_HELD_CHUNKS,
      idleTimeoutMs: STREAM_IDLE_TIMEOUT_MS,
      maxFinished: MAX_FINISHED_STREAMS,
      ...options.limits,
    }
  }

  /** Streams being assembled. */
  get openCount(): number {
    return this.open.size
  }

  /** Takes a `message` frame: undefined when its payload is no stream chunk, else the streams this chunk changed (none for a repeat). */
  push(frame: MessageFrame): AssembledStream[] | undefined {
    const chunk = streamChunkOf(frame.payload)
    if (!chunk) return undefined
    // spec: per (from, stream); JSON keeps "a" + 1 apart from "a1".
    const key = JSON.stringify([frame.from, chunk.stream])
    if (this.finished.has(key)) return []
    const updates: AssembledStream[] = []
    let entry = this.open.get(key)
    if (entry) {
      this.open.delete(key)
    } else {
      if (this.open.size >= this.limits.maxOpenStreams) updates.push(this.giveUp(this.open.keys().next().value!, 'too_many_streams'))
      entry = this.start(frame, chunk)
    }
    this.open.set(key, entry)
    entry.lastAt = this.now()

    const s = entry
    if (chunk.seq < s.next || s.held.has(chunk.seq) || (s.finalSeq !== undefined && chunk.seq > s.finalSeq)) return updates
    const bytes = Buffer.byteLength(chunk.delta)
    if (s.bytes + bytes > this.limits.maxStreamBytes) return [...updates, this.giveUp(key, 'too_large')]
    if (chunk.seq !== s.next && s.held.size >= this.limits.maxHeldChunks) return [...updates, this.giveUp(key, 'out_of_order')]
    if (chunk.done && s.finalSeq === undefined) {
      s.finalSeq = chunk.seq
      for (const seq of s.held.keys()) if (seq > chunk.seq) s.held.delete(seq)
    }
    s.bytes += bytes
    s.view.chunks += 1
    collect(s.view.board, frame.board)
    collect(s.view.ref, frame.ref)
    if (chunk.seq === s.next) {
      let text = s.view.text + chunk.delta
      s.next += 1
      for (let held = s.held.get(s.next); held !== undefined; held = s.held.get(s.next)) {
        text += held
        s.held.delete(s.next)
        s.next += 1
      }
      s.view.text = text
    } else {
      s.held.set(chunk.seq, chunk.delta)
    }
    if (s.finalSeq !== undefined && s.next > s.finalSeq) {
      s.view.state = 'done'
      this.finish(key)
    }
    return [...updates, snapshot(s.view)]
  }

  /** Gives up the streams that had no chunk for the idle timeout; forgets old finished ones. */
  expire(): AssembledStream[] {
    const now = this.now()
    const updates: AssembledStream[] = []
    for (const [key, entry] of this.open) {
      if (now - entry.lastAt < this.limits.idleTimeoutMs) break
      updates.push(this.giveUp(key, 'idle'))
    }
    for (const [key, at] of this.finished) {
      if (now - at < this.limits.idleTimeoutMs) break
      this.finished.delete(key)
    }
    return updates
  }

  /** Gives up every open stream (the socket dropped, the session ends). */
  closeAll(reason: StreamEndReason): AssembledStream[] {
    return [...this.open.keys()].map((key) => this.giveUp(key, reason))
  }

  private start(frame: MessageFrame, chunk: StreamChunk): OpenStream {
    this.serial += 1
    const view: AssembledStream = {
      serial: this.serial,
      from: frame.from,
      from_did: frame.from_did ?? null,
      to: frame.to ?? null,
      stream: chunk.stream,
      ts: frame.ts,
      text: '',
      chunks: 0,
      state: 'open',
      board: [],
      ref: [],
    }
    return {view, next: 0, held: new Map(), bytes: 0, lastAt: this.now()}
  }

  private giveUp(key: string, reason: StreamEndReason): AssembledStream {
    const s = this.open.get(key)!
    const seqs = [...s.held.keys()].sort((a, b) => a - b)
    const highest = s.finalSeq ?? seqs.at(-1) ?? s.next - 1
    s.view.text += seqs.map((seq) => s.held.get(seq)).join('')
    s.view.state = 'incomplete'
    s.view.reason = reason
    s.view.missing = Math.max(0, highest + 1 - s.next - seqs.length)
    s.held.clear()
    this.finish(key)
    return snapshot(s.view)
  }

  private finish(key: string) {
    this.open.delete(key)
    this.finished.delete(key)
    this.finished.set(key, this.now())
    if (this.finished.size > this.limits.maxFinished) this.finished.delete(this.finished.keys().next().value!)
  }
}

const snapshot = (view: AssembledStream): AssembledStream => ({...view, board: [...view.board], ref: [...view.ref]})

/**
 * One finished stream as one `message` event for pipe mode
 * (`--assemble-streams`): the payload is `{type: "message", text}` so the
 * receiver rule (read `.text`) applies, and `stream` says how it ended.
 */
export function assembledMessage(stream: AssembledStream): Record<string, unknown> {
  return {
    type: 'message',
    from: stream.from,
    from_did: stream.from_did,
    to: stream.to,
    ts: stream.ts,
    payload: {type: 'message', text: stream.text},
    ...(stream.board.length > 0 ? {board: stream.board} : {}),
    ...(stream.ref.length > 0 ? {ref: stream.ref} : {}),
    stream: {
      id: stream.stream,
      chunks: stream.chunks,
      complete: stream.state === 'done',
      ...(stream.state === 'incomplete' ? {reason: stream.reason, missing: stream.missing} : {}),
    },
  }
}
