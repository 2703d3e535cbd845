/**
 * The relay's outbound fast path (spec: Limits — broadcast fan-out; bench
 * bars in docs/relay.md "Performance"). Two things make a delivery cheap:
 *
 * - Pre-framing: a server frame is wrapped into its WebSocket frame
 *   (RFC 6455 §5.2: FIN, text opcode, unmasked, length) once, and the same
 *   bytes are written to every recipient's socket — no header, options object
 *   or closure per recipient.
 * - Tick batching: a socket written to in this tick is corked on the first
 *   write and uncorked in one `setImmediate` with every other socket written
 *   to in the same tick, so a socket that gets N frames in a tick costs one
 *   `writev` syscall instead of N `write`s.
 *
 * Corked bytes are counted by `socket.writableLength` (and so by
 * `ws.bufferedAmount`): a socket whose held bytes pass CORK_FLUSH_BYTES is
 * released early (Outbox.release), so the slow-consumer check only ever
 * judges bytes the kernel refused, never bytes we held back ourselves.
 */
import type {Writable} from 'node:stream'

/** RFC 6455 §5.2: FIN bit + opcode 0x1 (text). */
const FIN_TEXT = 0x81
/** Payload lengths up to this fit in the 7-bit length field. */
const MAX_SHORT_LENGTH = 125
/** Up to this a 16-bit extended length follows (code 126), beyond it a 64-bit one (code 127). */
const MAX_MEDIUM_LENGTH = 0xffff

/**
 * The complete unmasked text frame (header + payload) a server sends for
 * `json`, in one buffer. `json` must be valid UTF-8 (it comes from
 * JSON.stringify).
 */
export function textFrame(json: Buffer): Buffer {
  const length = json.length
  const headerLength = length <= MAX_SHORT_LENGTH ? 2 : length <= MAX_MEDIUM_LENGTH ? 4 : 10
  const frame = Buffer.allocUnsafe(headerLength + length)
  frame[0] = FIN_TEXT
  if (headerLength === 2) frame[1] = length
  else if (headerLength === 4) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    // Frames are capped far below 2^32 (spec Limits: 64 KB; the high-water mark), so the high word is 0.
    frame.writeUInt32BE(0, 2)
    frame.writeUInt32BE(length, 6)
  }
  json.copy(frame, headerLength)
  return frame
}

/** A socket that can be held corked until the end of the tick. */
export interface Corkable {
  /** Set while the socket sits in an Outbox batch. */
  corked: boolean
  readonly socket: Writable
}

/**
 * The set of sockets corked in the current tick. `hold` corks a socket on its
 * first write of the tick; one `setImmediate` uncorks them all, after every
 * I/O callback of this loop turn (so frames from several senders, and several
 * frames from one read, share a syscall). Order on each socket is the write
 * order: corking only delays, never reorders.
 */
export class Outbox {
  private held: Corkable[] = []
  private scheduled = false

  hold(target: Corkable): void {
    if (target.corked) return
    target.corked = true
    target.socket.cork()
    this.held.push(target)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(this.flush)
    }
  }

  /**
   * Uncorks one socket before the end of the tick (its corked bytes grew
   * large): what the kernel takes leaves its buffer at once. It stays in the
   * batch list; a later hold in the same tick corks it again, and the final
   * uncork of an uncorked socket does nothing.
   */
  release(target: Corkable): void {
    if (!target.corked) return
    target.corked = false
    target.socket.uncork()
  }

  /** Uncorks every held socket now (also used on stop, so nothing waits for a tick that never comes). */
  readonly flush = (): void => {
    this.scheduled = false
    const held = this.held
    this.held = []
    for (const target of held) {
      if (!target.corked) continue
      target.corked = false
      // A socket destroyed meanwhile discards its buffer; uncork on it is harmless.
      target.socket.uncork()
    }
  }
}
