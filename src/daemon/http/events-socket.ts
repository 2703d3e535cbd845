/**
 * `WS /events`: every event of the daemon's bus, one JSON envelope per
 * message (DECISIONS: Daemon events). The upgrade runs the same perimeter as
 * the HTTP routes and needs the portal token (Authorization: Bearer, or a
 * `token` query parameter for browsers, which cannot set headers on a
 * WebSocket), or the IDE's session cookie with its CSRF token as `csrf`. A
 * subscriber that does not keep up is dropped once its unsent bytes pass the
 * high-water mark, so it can never grow the daemon's memory.
 */
import type {IncomingMessage} from 'node:http'
import {createRequire} from 'node:module'
import type {Duplex} from 'node:stream'
import type {WebSocket, WebSocketServer} from 'ws'
import {STATUS_OF_KIND} from '../../http/error-middleware.js'
import {writeRawError} from '../../http/raw-error.js'
import {isMeshError} from '../../lib/errors.js'
import {CLOSE_CODES} from '../../protocol/close-codes.js'
import {EVENTS_PATH} from '../../protocol/daemon.js'
import type {DaemonContext} from '../context.js'
import {CSRF_QUERY} from '../constants.js'
import {assertLoopbackRequest, assertOperator, assertProject, bearerOf} from './guards.js'

/** Unsent bytes after which a subscriber is dropped (docs/daemon-api.md, Events). */
export const EVENTS_HIGH_WATER_BYTES = 1024 * 1024
const PING_INTERVAL_MS = 30_000

export interface EventsSocket {
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  readonly clients: number
  close(): Promise<void>
}

export function createEventsSocket(context: DaemonContext, options: {highWaterBytes?: number} = {}): EventsSocket {
  const highWater = options.highWaterBytes ?? EVENTS_HIGH_WATER_BYTES
  // ws (~20 modules) is required at the first subscriber, not at the daemon's start (docs/architecture.md, Start-up).
  let wss: WebSocketServer | undefined
  const server = () => (wss ??= new (createRequire(import.meta.url)('ws') as typeof import('ws')).WebSocketServer({noServer: true, maxPayload: 4096}))
  const alive = new WeakSet<WebSocket>()

  const unsubscribe = context.events.subscribe((event) => {
    if (!wss || wss.clients.size === 0) return
    const data = JSON.stringify(event)
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue
      if (ws.bufferedAmount > highWater) {
        context.debug.log({lvl: 'warn', tag: 'events.slow-subscriber', msg: `dropped an /events subscriber holding ${ws.bufferedAmount} unsent bytes`})
        ws.terminate()
        continue
      }
      ws.send(data)
    }
  })

  const pinger = setInterval(() => {
    for (const ws of wss?.clients ?? []) {
      if (!alive.has(ws)) {
        ws.terminate()
        continue
      }
      alive.delete(ws)
      ws.ping()
    }
  }, PING_INTERVAL_MS)
  pinger.unref()

  return {
    upgrade(request, socket, head) {
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (url.pathname !== EVENTS_PATH) return false
      try {
        assertLoopbackRequest(request)
        assertProject(request, context.projectId())
        if (request.method !== 'GET') {
          writeRawError(socket, 405, 'method_not_allowed', `A WebSocket opens with GET ${EVENTS_PATH}`, {Allow: 'GET'})
          return true
        }
        const tokens = url.searchParams.getAll('token')
        const csrf = url.searchParams.getAll(CSRF_QUERY)
        // The IDE's page has no token: its session cookie and CSRF token, from the daemon's own origin (docs/ide.md).
        assertOperator(request, context, csrf.length === 1 ? csrf[0] : undefined, bearerOf(request) ?? (tokens.length === 1 ? tokens[0] : undefined))
      } catch (error) {
        if (isMeshError(error)) writeRawError(socket, STATUS_OF_KIND[error.kind], error.code, error.message)
        else writeRawError(socket, 400, 'bad_request', 'The upgrade request could not be read')
        return true
      }
      server().handleUpgrade(request, socket, head, (ws) => {
        alive.add(ws)
        ws.on('pong', () => alive.add(ws))
        // Subscribers only listen; anything they send is ignored.
        ws.on('message', () => {})
        ws.on('error', () => ws.terminate())
      })
      return true
    },
    get clients() {
      return wss?.clients.size ?? 0
    },
    async close() {
      unsubscribe()
      clearInterval(pinger)
      if (!wss) return
      const opened = wss
      for (const ws of opened.clients) ws.close(CLOSE_CODES.goingAway, 'daemon stopping')
      await new Promise<void>((resolve) => opened.close(() => resolve()))
      for (const ws of opened.clients) ws.terminate()
    },
  }
}
