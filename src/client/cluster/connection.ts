import {EventEmitter} from 'node:events'
import type WebSocketClass from 'ws'
import {MeshError, notFound, tooLarge} from '../../lib/errors.js'
import {createBackoff, type Backoff} from './backoff.js'
import {FLUSH_TIMEOUT_MS, HANDSHAKE_TIMEOUT_MS, MAX_FRAME_BYTES, MAX_QUEUED_FRAMES, REASON_DELETED} from './constants.js'
import {
  parseServerFrame,
  type AckFrame,
  type ClientFrame,
  type ClosedFrame,
  type ErrorFrame,
  type MessageFrame,
  type PresenceFrame,
  type ReadyFrame,
  type ServerFrame,
  type UnknownFrame,
} from './frames.js'
import {Roster, type RosterEntry} from './roster.js'
import {openAttempt, type Socket} from './socket.js'

/** Where the connection is in its life. `gone` (cluster deleted) and `failed` are final. */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'gone' | 'failed' | 'closed'

export interface ConnectionStatus {
  state: ConnectionState
  /** Failed attempts since the last successful connect. */
  attempt: number
  /** When reconnecting: the delay chosen and the clock time of the next attempt. */
  retryInMs?: number
  retryAt?: number
  /** The last failure, as one human line. */
  lastError?: string
}

/** Events of a ClusterConnection (names avoid EventEmitter's special "error"). */
export interface ClusterConnectionEvents {
  status: [ConnectionStatus]
  /** Every parsed server frame, in arrival order, known type or not, with the exact text the relay sent. */
  frame: [ServerFrame | UnknownFrame, string]
  ready: [ReadyFrame]
  presence: [PresenceFrame]
  message: [MessageFrame]
  ack: [AckFrame]
  closed: [ClosedFrame]
  /** An `error` frame from the relay (the socket stays open). */
  'relay-error': [ErrorFrame]
  roster: [RosterEntry[]]
  /** A frame that was not valid JSON or lacked required fields; it is skipped. */
  'protocol-error': [{error: string; raw: string}]
  /** The cluster was deleted (`closed` with reason `deleted`, or 404 on reconnect): no reconnect. */
  gone: [{reason: string}]
  /** A failure that ends the connection for good (401 at reconnect, retries exhausted). */
  fatal: [MeshError]
}

export interface ClusterConnectionOptions {
  /** Full WebSocket URL including the query (see clusterWsUrl). */
  url: string
  /** The cluster id, for messages. */
  clusterId: string
  /** Injected ws class; loaded lazily from `ws` otherwise. */
  WebSocket?: typeof WebSocketClass
  backoff?: Backoff
  /** Retry a failed first connect too (default false: the first failure rejects connect()). */
  retryInitial?: boolean
  /** Give up after this many consecutive failed attempts (default: never). */
  maxAttempts?: number
  timers?: {setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void}
  now?: () => number
  handshakeTimeoutMs?: number
}

/**
 * One member's socket to a cluster: typed frames, a roster from `ready` and
 * `presence`, sends queued while (re)connecting, and reconnects with
 * exponential backoff plus jitter on every close except a deleted cluster
 * (spec: "the client reconnects on close"; DECISIONS: `deleted` → do not
 * reconnect).
 */
export class ClusterConnection extends EventEmitter<ClusterConnectionEvents> {
  readonly roster = new Roster()
  private readonly options: ClusterConnectionOptions
  private readonly backoff: Backoff
  private readonly timers: NonNullable<ClusterConnectionOptions['timers']>
  private readonly now: () => number
  private socket: Socket | undefined
  private retryTimer: unknown
  private status: ConnectionStatus = {state: 'idle', attempt: 0}
  private everReady = false
  private stopped = false
  private queue: string[] = []
  private awaitingAcks = 0
  private WebSocket: typeof WebSocketClass | undefined

  constructor(options: ClusterConnectionOptions) {
    super()
    this.options = options
    this.backoff = options.backoff ?? createBackoff()
    this.timers = options.timers ?? {setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout)}
    this.now = options.now ?? Date.now
    this.WebSocket = options.WebSocket
  }

  /** The current state, for views that render it. */
  get state(): ConnectionStatus {
    return {...this.status}
  }

  /** Sends sent over the socket whose `ack` (or `error`) has not arrived yet. */
  get unacknowledged(): number {
    return this.awaitingAcks
  }

  /**
   * Opens the socket and resolves with the first `ready`. Rejects with a
   * MeshError when the relay refuses (401 `cluster_unauthorized`, 404
   * `cluster_not_found`) or cannot be reached, unless `retryInitial`.
   */
  async connect(): Promise<ReadyFrame> {
    this.WebSocket ??= (await import('ws')).default
    return new Promise<ReadyFrame>((resolve, reject) => {
      const onReady = (frame: ReadyFrame) => settle(() => resolve(frame))
      const onFail = (error: MeshError) => settle(() => reject(error))
      const onGone = () => settle(() => reject(notFound('cluster_not_found', `Cluster ${this.options.clusterId} was deleted`)))
      const settle = (fn: () => void) => {
        this.off('ready', onReady).off('fatal', onFail).off('gone', onGone)
        fn()
      }
      this.on('ready', onReady).on('fatal', onFail).on('gone', onGone)
      this.open()
    })
  }

  /** Broadcasts a payload to every other member. */
  broadcast(payload: unknown): void {
    this.send({payload})
  }

  /** Sends a payload to every socket of one handle. */
  direct(to: string, payload: unknown): void {
    this.send({to, payload})
  }

  /**
   * Sends a client frame; queued while not connected. Throws `frame_too_large`
   * over 64 KB and `send_queue_full` when MAX_QUEUED_FRAMES already wait.
   */
  send(frame: ClientFrame): void {
    this.sendRaw(JSON.stringify(frame))
  }

  /** Sends text exactly as given (any client frame form the relay accepts). */
  sendRaw(text: string): void {
    // spec: cluster Limits — message or frame size ≤ 64 KB
    if (Buffer.byteLength(text) > MAX_FRAME_BYTES) throw tooLarge('frame_too_large', `Frame is ${Buffer.byteLength(text)} bytes; the relay accepts at most ${MAX_FRAME_BYTES}`)
    if (this.stopped || this.status.state === 'gone' || this.status.state === 'failed') throw new MeshError('unavailable', 'connection_closed', 'The cluster connection is closed')
    if (this.status.state !== 'connected' || !this.socket) {
      // Refuse the newest rather than silently drop the oldest: the caller can say so (pipe and room view do).
      if (this.queue.length >= MAX_QUEUED_FRAMES) {
        throw new MeshError('rate_limited', 'send_queue_full', `${MAX_QUEUED_FRAMES} sends are already waiting for the connection; this one was not sent`)
      }
      this.queue.push(text)
      return
    }
    this.socket.send(text)
    this.awaitingAcks += 1
  }

  /**
   * Waits until every queued send went out and was acknowledged, or the
   * timeout passes, or the connection ends. Used before exiting a pipe.
   */
  drain(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    const settled = () => (this.queue.length === 0 && this.awaitingAcks === 0) || this.isFinal()
    if (settled()) return Promise.resolve()
    return new Promise((resolve) => {
      const check = () => {
        if (!settled()) return
        done()
      }
      const done = () => {
        this.timers.clearTimeout(timer)
        this.off('ack', check).off('relay-error', check).off('status', check)
        resolve()
      }
      const timer = this.timers.setTimeout(done, timeoutMs)
      this.on('ack', check).on('relay-error', check).on('status', check)
    })
  }

  /** Closes for good (no reconnect). */
  close(): void {
    this.stopped = true
    this.timers.clearTimeout(this.retryTimer)
    const socket = this.socket
    this.socket = undefined
    if (socket) {
      socket.removeAllListeners()
      socket.on('error', () => {})
      socket.close(1000)
    }
    if (!this.isFinal()) this.setStatus({state: 'closed', attempt: 0})
  }

  private isFinal() {
    return this.status.state === 'gone' || this.status.state === 'failed' || this.status.state === 'closed'
  }

  private setStatus(status: ConnectionStatus) {
    this.status = status
    this.emit('status', {...status})
  }

  private open() {
    if (this.stopped) return
    this.setStatus({...this.status, state: 'connecting', retryInMs: undefined, retryAt: undefined})
    // "connected" is announced on `ready`, when the relay has taken us in.
    const socket = openAttempt(this.WebSocket!, this.options.url, this.options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS, {
      onText: (text) => this.onFrame(text),
      onBinary: () => this.emit('protocol-error', {error: 'binary frame', raw: ''}),
      onFail: (error) => {
        if (this.socket === socket) this.socket = undefined
        this.onAttemptFailed(error)
      },
      onClose: (code) => {
        if (this.socket === socket) this.socket = undefined
        this.onSocketClosed(code)
      },
    })
    this.socket = socket
  }

  private onFrame(raw: string) {
    try {
      this.handleFrame(raw)
    } catch (error) {
      // This runs inside ws's socket read: a listener that throws must not take the process down.
      this.emit('protocol-error', {error: `a frame could not be handled: ${error instanceof Error ? error.message : String(error)}`, raw})
    }
  }

  private handleFrame(raw: string) {
    const parsed = parseServerFrame(raw)
    if (!parsed.ok) return void this.emit('protocol-error', {error: parsed.error, raw: parsed.raw})
    this.emit('frame', parsed.frame, raw)
    if (!parsed.known) return
    const frame = parsed.frame
    switch (frame.type) {
      case 'ready':
        this.everReady = true
        this.backoff.reset()
        this.roster.applyReady(frame)
        this.setStatus({state: 'connected', attempt: 0})
        this.emit('ready', frame)
        this.emit('roster', this.roster.list())
        this.flushQueue()
        break
      case 'presence':
        if (this.roster.applyPresence(frame)) this.emit('roster', this.roster.list())
        this.emit('presence', frame)
        break
      case 'message':
        this.emit('message', frame)
        break
      case 'ack':
        this.awaitingAcks = Math.max(0, this.awaitingAcks - 1)
        this.emit('ack', frame)
        break
      case 'error':
        // spec: the sender of a refused frame gets an error in place of its ack.
        this.awaitingAcks = Math.max(0, this.awaitingAcks - 1)
        this.emit('relay-error', frame)
        break
      case 'closed':
        this.emit('closed', frame)
        if (frame.reason === REASON_DELETED) this.becomeGone(frame.reason)
        else this.status = {...this.status, lastError: `relay closed the socket: ${frame.reason}`}
        break
    }
  }

  private flushQueue() {
    const pending = this.queue
    this.queue = []
    for (const text of pending) {
      this.socket!.send(text)
      this.awaitingAcks += 1
    }
  }

  private onSocketClosed(code: number) {
    this.awaitingAcks = 0
    this.roster.markAllOffline()
    this.emit('roster', this.roster.list())
    if (this.stopped || this.isFinal()) return
    const lastError = this.status.lastError ?? `connection closed (code ${code})`
    this.scheduleRetry(lastError)
  }

  private onAttemptFailed(error: MeshError) {
    if (this.stopped || this.isFinal()) return
    // A cluster that answered before and now is 404 was deleted while we were away.
    if (error.kind === 'not_found' && this.everReady) return this.becomeGone(REASON_DELETED)
    const retryable = error.kind !== 'unauthorized' && error.kind !== 'not_found' && error.kind !== 'forbidden'
    const mayRetry = retryable && (this.everReady || this.options.retryInitial)
    const exhausted = this.options.maxAttempts !== undefined && this.backoff.attempt >= this.options.maxAttempts
    if (!mayRetry || exhausted) {
      this.setStatus({state: 'failed', attempt: this.backoff.attempt, lastError: error.message})
      this.emit('fatal', error)
      return
    }
    this.scheduleRetry(error.message)
  }

  private scheduleRetry(lastError: string) {
    const retryInMs = this.backoff.next()
    this.setStatus({state: 'reconnecting', attempt: this.backoff.attempt, retryInMs, retryAt: this.now() + retryInMs, lastError})
    this.retryTimer = this.timers.setTimeout(() => this.open(), retryInMs)
  }

  private becomeGone(reason: string) {
    this.timers.clearTimeout(this.retryTimer)
    this.queue = []
    this.awaitingAcks = 0
    this.setStatus({state: 'gone', attempt: 0, lastError: `cluster ${this.options.clusterId} was deleted`})
    this.emit('gone', {reason})
  }
}
