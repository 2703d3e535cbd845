/**
 * Server-sent events over Koa: one open response per browser, written as
 * `event:`/`data:` lines. Written here rather than taken from a package:
 * the format is a few lines (WHATWG HTML "Server-sent events"), and the Koa
 * SSE packages on npm are unmaintained; what matters is the bookkeeping
 * around it: keepalive comments, dropping a reader that stops reading, a cap
 * on open streams, and cleanup when the browser goes.
 *
 * A stream one hub opened may join other hubs (`join`): one connection then
 * carries several hubs' events, each hub's marked with its own `topic`. A browser
 * opens at most six HTTP/1.1 connections to a host, so the registry's pages
 * share one stream per browser for all their tabs (docs/site.md).
 */
import {PassThrough} from 'node:stream'
import type {Context} from 'koa'
import {sendError} from './error-middleware.js'

export interface EventStream {
  /** Writes one event; false when the stream is closed (or was just closed for falling behind). */
  send(event: string, data: unknown): boolean
  readonly closed: boolean
  close(): void
}

export interface EventStreamHub {
  /**
   * Opens a stream on `ctx` and keeps it until the browser leaves; answers
   * 503 `too_many_streams` with Retry-After when `max` are open. `hello`
   * runs once the stream is open (a first snapshot event).
   */
  open(ctx: Context, hello?: (stream: EventStream) => void): EventStream | null
  /**
   * Adds a stream another hub opened, until it closes. This hub's events
   * reach it as unnamed events whose data is `{"topic", "event", "data"}`;
   * what `hello` sends also carries `"greeting": true` (what every new stream
   * is told once, which a browser relaying the stream to several tabs keeps
   * for latecomers).
   * Counts towards `max`: check `full` first.
   */
  join(stream: EventStream, hello?: (stream: EventStream) => void): void
  /** Sends one event to every open stream. */
  broadcast(event: string, data: unknown): void
  /** Open streams, joined ones included. */
  readonly size: number
  /** `max` streams are open: `open` refuses, a joining stream should be refused too (`refuseStream`). */
  readonly full: boolean
  /** Ends every stream, joined ones included (server shutdown). */
  closeAll(): void
}

export interface EventStreamOptions {
  /** Open streams at most. */
  max: number
  /** Comment line interval (ms) that keeps proxies from closing an idle stream. */
  keepaliveMs: number
  /** The browser's reconnect delay (ms), sent as `retry:`. */
  retryMs: number
  /** A reader with more than this many bytes unread is dropped (it reconnects and gets a fresh snapshot). */
  maxBufferedBytes?: number
  /** The event name this hub's events carry on a stream that joined it; required to `join`. */
  topic?: string
}

const DEFAULT_MAX_BUFFERED = 1 << 20

/** One open stream and the writer of its already-formatted text; `joined` when it reads this hub's events under its topic. */
interface Reader {
  stream: EventStream
  write(text: string): boolean
  joined: boolean
}

/** What another hub needs to write into a stream and to learn that it closed; private to this module. */
interface Connection {
  write(text: string): boolean
  onClose: Set<() => void>
}
const connections = new WeakMap<EventStream, Connection>()

const eventText = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
// Unnamed (an EventSource's `message`): a reader that relays the stream gets every topic with one listener.
const topicText = (topic: string, event: string, data: unknown, greeting = false) =>
  `data: ${JSON.stringify(greeting ? {topic, event, data, greeting} : {topic, event, data})}\n\n`

/** The answer to one stream too many: 503 `too_many_streams`, retry after the reconnect delay. */
export function refuseStream(ctx: Context, retryMs: number): void {
  ctx.set('Retry-After', String(Math.ceil(retryMs / 1000)))
  sendError(ctx, 503, 'too_many_streams', 'Too many live pages are open on this node; retry shortly')
}

export function createEventStreamHub(options: EventStreamOptions): EventStreamHub {
  const readers = new Set<Reader>()
  const {topic} = options
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED

  function start(ctx: Context): Reader {
    const body = new PassThrough()
    let closed = false
    const onClose = new Set<() => void>()
    const close = () => {
      if (closed) return
      closed = true
      clearInterval(keepalive)
      readers.delete(reader)
      for (const leave of onClose) leave()
      body.end()
    }
    const write = (text: string) => {
      if (closed) return false
      body.write(text)
      if (body.writableLength > maxBuffered) {
        close()
        return false
      }
      return true
    }
    const stream: EventStream = {
      send: (event, data) => write(eventText(event, data)),
      get closed() {
        return closed
      },
      close,
    }
    const reader: Reader = {stream, write, joined: false}
    connections.set(stream, {write, onClose})
    const keepalive = setInterval(() => write(': keepalive\n\n'), options.keepaliveMs)
    keepalive.unref()
    // An event stream is meant to stay open: no idle timeout on its socket.
    ctx.req.socket.setTimeout(0)
    ctx.req.socket.setNoDelay(true)
    ctx.req.once('close', close)
    ctx.status = 200
    ctx.set({'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no'})
    ctx.body = body
    write(`retry: ${options.retryMs}\n\n`)
    readers.add(reader)
    return reader
  }

  return {
    open(ctx, hello) {
      if (readers.size >= options.max) {
        refuseStream(ctx, options.retryMs)
        return null
      }
      const {stream} = start(ctx)
      hello?.(stream)
      return stream
    },
    join(stream, hello) {
      const connection = connections.get(stream)
      if (topic === undefined) throw new TypeError('A hub without a topic cannot be joined')
      if (!connection) throw new TypeError('Only a stream an event-stream hub opened can join another hub')
      if (stream.closed) return
      const reader: Reader = {stream, write: connection.write, joined: true}
      readers.add(reader)
      connection.onClose.add(() => readers.delete(reader))
      hello?.({
        send: (event, data) => connection.write(topicText(topic, event, data, true)),
        get closed() {
          return stream.closed
        },
        close: () => stream.close(),
      })
    },
    broadcast(event, data) {
      if (readers.size === 0) return
      // Serialized once for every reader of each form.
      let plain: string | undefined
      let joined: string | undefined
      for (const reader of [...readers]) {
        // Only a hub with a topic has joined readers (join checks).
        if (reader.joined) reader.write((joined ??= topicText(topic as string, event, data)))
        else reader.write((plain ??= eventText(event, data)))
      }
    },
    get size() {
      return readers.size
    },
    get full() {
      return readers.size >= options.max
    },
    closeAll() {
      for (const reader of [...readers]) reader.stream.close()
    },
  }
}
