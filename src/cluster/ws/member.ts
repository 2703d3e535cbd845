/**
 * One member socket on this node: its self-asserted identity, its outbound
 * guard (slow consumer), its message rate window, its keepalive state and the
 * serial queue that keeps its sends in order while hashtags resolve.
 */
import {randomBytes} from 'node:crypto'
import type {Duplex} from 'node:stream'
import type {WebSocket} from 'ws'
import {CLOSE_CODE_OF_REASON, CLOSE_GRACE_MS, CORK_FLUSH_BYTES} from '../constants.js'
import {CLOSE_CODES} from '../../protocol/close-codes.js'
import type {RelayMetrics} from '../metrics.js'
import type {MemberVis} from '../types.js'
import {CLOSED_FRAMES, encodeFrame, type ClosedReason, type ServerFrame} from './frames.js'
import {textFrame, type Corkable, type Outbox} from './wire.js'

export interface MemberIdentity {
  agent: string
  did: string | null
  vis: MemberVis
  /** DECISIONS: on a public cluster, the socket that presented the `ck_` token. */
  owner: boolean
  /** The cluster is public (echoed as `ready.public`). */
  public: boolean
}

/** Sends waiting on one member (for its join or a hashtag lookup) before further ones are refused (`busy`). */
const MAX_QUEUED_SENDS = 1024

export interface MemberOptions {
  highWaterBytes: number
  now: () => number
  onGone(member: Member): void
  joined: Promise<boolean>
  /** The node's tick batch: this socket's writes of a tick leave in one syscall. */
  outbox: Outbox
  /** Counts frames out and slow-consumer closes. */
  metrics: RelayMetrics
}

export class Member implements Corkable {
  /** Unique per socket, also across nodes (presence rows are keyed by node + socket). */
  readonly id = randomBytes(9).toString('base64url')
  readonly joinedAt: number
  /** Answered the last ping. */
  alive = true
  /** Set once a close began: nothing more is sent. */
  closing = false
  private windowStart = 0
  private windowCount = 0
  private queued = 0
  private queuedBytes = 0
  private joinSettled = false
  private tail: Promise<void>
  private gone = false
  /** Held corked by the outbox until the end of the tick. */
  corked = false
  /**
   * Pre-framed bytes may go straight to the socket: without an extension
   * (the relay turns permessage-deflate off) `ws` writes every frame of its
   * own (ping, close, send) synchronously and in call order, so ours
   * interleave correctly. Otherwise every frame goes through `ws.send`.
   */
  private readonly raw: boolean

  /**
   * @param socket the upgraded TCP socket `ws` was handed (ours: we passed
   *   it to `handleUpgrade`), written to directly on the fast path.
   */
  constructor(
    readonly ws: WebSocket,
    readonly socket: Duplex,
    readonly clusterId: string,
    readonly identity: MemberIdentity,
    private readonly options: MemberOptions,
  ) {
    this.raw = ws.extensions === ''
    this.joinedAt = options.now()
    // Registered before the queue's own continuation, so it runs first.
    void options.joined.then(() => (this.joinSettled = true))
    this.tail = options.joined.then(() => {})
    ws.on('pong', () => (this.alive = true))
    ws.on('close', () => this.markGone())
  }

  get visible() {
    return this.identity.vis !== 'ghost'
  }

  /** Hands serialized frame bytes (the JSON text) to the socket; see sendWire. */
  send(json: Buffer): boolean {
    return this.sendWire(textFrame(json), json)
  }

  /**
   * Hands a pre-framed WebSocket frame (`textFrame(json)`, built once per
   * broadcast) to the socket, corked until the end of the tick. A socket
   * whose unsent bytes passed the high-water mark gets nothing more and is
   * closed as a slow consumer, so one reader that stalls cannot grow the
   * relay's memory. Bytes we hold corked count only after they were offered
   * to the kernel: past CORK_FLUSH_BYTES the socket is released first, so a
   * fast reader that merely got a large burst this tick is not mistaken for
   * a slow one.
   *
   * @param json the same frame unframed, for the `ws.send` path.
   */
  sendWire(wire: Buffer, json: Buffer): boolean {
    if (this.closing) return false
    const ws = this.ws
    // After the peer's close frame (or a socket end) nothing may follow our close frame.
    if (ws.readyState !== ws.OPEN) return false
    const outbox = this.options.outbox
    let unsent = ws.bufferedAmount
    if (this.corked && unsent > CORK_FLUSH_BYTES) {
      // A write the kernel takes at once completes synchronously, so `unsent` drops to what it refused.
      outbox.release(this)
      unsent = ws.bufferedAmount
    }
    if (unsent > this.options.highWaterBytes) {
      this.options.metrics.slowConsumerClose()
      this.close('slow_consumer')
      return false
    }
    outbox.hold(this)
    if (this.raw) this.socket.write(wire)
    else ws.send(json, {binary: false})
    this.options.metrics.frameOut()
    return true
  }

  sendFrame(frame: ServerFrame) {
    return this.send(encodeFrame(frame))
  }

  /** Counts one message in the fixed window; returns seconds to wait when over, else 0. */
  takeMessage(limit: number, windowMs: number): number {
    const now = this.options.now()
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now
      this.windowCount = 0
    }
    this.windowCount++
    return this.windowCount <= limit ? 0 : Math.max(1, Math.ceil((this.windowStart + windowMs - now) / 1000))
  }

  /** Joined and nothing waiting: a send may be handled at once without overtaking another. */
  get idle() {
    return this.joinSettled && this.queued === 0
  }

  /**
   * Runs `task` after every earlier send of this member (and after the join),
   * so a message waiting on hashtag resolution is never overtaken. Returns
   * false when too many sends, or too many bytes (the high-water mark), are
   * already waiting: memory per socket stays bounded.
   */
  enqueue(task: () => Promise<void> | void, bytes: number): boolean {
    if (this.queued >= MAX_QUEUED_SENDS || this.queuedBytes + bytes > this.options.highWaterBytes) return false
    this.queued++
    this.queuedBytes += bytes
    this.tail = this.tail
      .then(task)
      .catch(() => {})
      .finally(() => {
        this.queued--
        this.queuedBytes -= bytes
      })
    return true
  }

  /**
   * Sends `closed {reason}` (if the socket still takes data) and closes; a
   * peer that does not finish the closing handshake within the grace time is
   * destroyed. The member leaves the room at once.
   */
  close(reason: ClosedReason) {
    this.shut(CLOSED_FRAMES[reason], CLOSE_CODE_OF_REASON[reason], reason)
  }

  /** The relay cannot serve this socket (storage down): an `error` frame, then close `internal` (1011). */
  fail(detail: Buffer) {
    this.shut(detail, CLOSE_CODES.internal, 'unavailable')
  }

  /** The last frame through `ws.send` (after any corked bytes), then ws's close frame; nothing follows. */
  private shut(lastFrame: Buffer, code: number, reason: string) {
    if (this.closing) return
    this.closing = true
    const ws = this.ws
    if (ws.readyState === ws.OPEN) {
      ws.send(lastFrame, {binary: false})
      ws.close(code, reason)
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref()
    } else ws.terminate()
    this.markGone()
  }

  private markGone() {
    if (this.gone) return
    this.gone = true
    this.closing = true
    this.options.onGone(this)
  }
}
