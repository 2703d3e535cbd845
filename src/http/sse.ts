/**
 * Server-sent events over Koa: one open response per browser, written as
 * `event:`/`data:` lines. Written here rather than taken from a package:
 * the format is a few lines (WHATWG HTML "Server-sent events"), and the Koa
 * SSE packages on npm are unmaintained; what matters is the bookkeeping
 * around it: keepalive comments, dropping a reader that stops reading, a cap
 * on open streams, and cleanup when the browser goes.
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
  /** Sends one event to every open stream. */
  broadcast(event: string, data: unknown): void
  readonly size: number
  /** Ends every stream (server shutdown). */
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
}

const DEFAULT_MAX_BUFFERED = 1 << 20

/** One open stream and the writer of its already-formatted text. */
interface Reader {
  stream: EventStream
  write(text: string): boolean
}

const eventText = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`

export function createEventStreamHub(options: EventStreamOptions): EventStreamHub {
  const readers = new Set<Reader>()
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED

  function start(ctx: Context): Reader {
    const body = new PassThrough()
    let closed = false
    const close = () => {
      if (closed) return
      closed = true
      clearInterval(keepalive)
      readers.delete(reader)
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
    const reader: Reader = {stream, write}
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
        ctx.set('Retry-After', String(Math.ceil(options.retryMs / 1000)))
        sendError(ctx, 503, 'too_many_streams', 'Too many live pages are open on this node; retry shortly')
        return null
      }
      const {stream} = start(ctx)
      hello?.(stream)
      return stream
    },
    broadcast(event, data) {
      if (readers.size === 0) return
      // Serialized once for every reader.
      const text = eventText(event, data)
      for (const reader of [...readers]) reader.write(text)
    },
    get size() {
      return readers.size
    },
    closeAll() {
      for (const reader of [...readers]) reader.stream.close()
    },
  }
}
