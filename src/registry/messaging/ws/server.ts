import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import {WebSocketServer, type RawData, type WebSocket} from 'ws'
import {refuseUpgrade} from '../../../http/host.js'
import {createRateLimiter} from '../../../http/rate-limit.js'
import {STATUS_OF_KIND} from '../../../http/error-middleware.js'
import {isMeshError} from '../../../lib/errors.js'
import {CLOSE_CODES} from '../../../protocol/close-codes.js'
import type {Logger} from '../../../lib/log.js'
import {NO_REGISTRY_METRICS, type RegistryMetrics} from '../../metrics.js'
import {
  WS_HARD_MAX_FRAME_BYTES,
  WS_MAX_BUFFERED_BYTES,
  WS_MAX_FRAME_BYTES,
  WS_PATH,
  WS_PING_INTERVAL_MS,
  WS_RATE_LIMIT,
  WS_RATE_WINDOW_MS,
} from '../constants.js'
import {checkMessage, type MessagingService} from '../service.js'
import {FrameError, parseClientFrame, type ClientFrame, type Ref, type ServerFrame} from './frames.js'
import type {LiveRouter, LiveSocket} from './router.js'

export interface AgentSocketServerOptions {
  service: MessagingService
  router: LiveRouter
  authenticate(token: string | undefined): Promise<string>
  logger: Logger
  pingIntervalMs?: number
  rateLimit?: {limit: number; windowMs: number}
  /** Counts messages accepted and delivered live on sockets; default nothing. */
  metrics?: RegistryMetrics
}

/** Close codes of the agent socket, from the one table (docs/messaging.md, Close codes). */
export const CLOSE = {shutdown: CLOSE_CODES.goingAway, policy: CLOSE_CODES.policy, internal: CLOSE_CODES.internal} as const

interface Connection extends LiveSocket {
  /** Per-process socket number (rate-limit key, logs). */
  id: number
  agentId: string
  ws: WebSocket
  /** Default peer set by `connect_to`. spec Events: "opens a direct room". */
  room?: string
  alive: boolean
  /** Frames pushed before the welcome went out. */
  early: ServerFrame[] | null
  /** Client frames are handled one after another, so a sender's messages keep their order. */
  queue: Promise<void>
  knownPeers: Set<string>
}

const tokenOf = (request: IncomingMessage, url: URL): string | undefined => {
  const fromQuery = url.searchParams.get('token')
  if (fromQuery) return fromQuery
  // The auth scheme is case-insensitive (RFC 9110 11.1), as on the HTTP routes.
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
}

/**
 * The agent WebSocket `GET /v1/agents/ws?token=<JWT>` (spec Registry side):
 * authenticates before the handshake, then carries `connect_to` / `message`
 * client frames to peers' live sockets on any node, falling back to the
 * inbox or webhook when the peer has none.
 */
export function createAgentSocketServer(options: AgentSocketServerOptions) {
  const {service, router, logger} = options
  const metrics = options.metrics ?? NO_REGISTRY_METRICS
  // Frames up to the hard cap are read and answered with an error frame; above it ws closes with 1009.
  const wss = new WebSocketServer({noServer: true, maxPayload: WS_HARD_MAX_FRAME_BYTES, perMessageDeflate: false})
  // ws's own refusal of a malformed handshake (bad key, version, protocol list) is a text/html body; ours is JSON.
  wss.on('wsClientError', (error: Error, socket: Duplex) => {
    const headers: Record<string, string> = /version/i.test(error.message) ? {'Sec-WebSocket-Version': '13, 8'} : {}
    refuseUpgrade(socket, 400, 'invalid_handshake', `WebSocket handshake refused: ${error.message}`, headers)
  })
  const limiter = createRateLimiter({limit: options.rateLimit?.limit ?? WS_RATE_LIMIT, windowMs: options.rateLimit?.windowMs ?? WS_RATE_WINDOW_MS})
  const connections = new Set<Connection>()
  let closing = false
  let pinger: NodeJS.Timeout | undefined

  const write = (conn: Connection, frame: ServerFrame) => {
    if (conn.ws.readyState !== conn.ws.OPEN) return
    if (conn.ws.bufferedAmount > WS_MAX_BUFFERED_BYTES) {
      conn.ws.close(CLOSE.policy, 'slow_consumer')
      return
    }
    conn.ws.send(JSON.stringify(frame))
  }
  const fail = (conn: Connection, code: string, message: string, ref?: Ref) => write(conn, {type: 'error', code, message, ...(ref === undefined ? {} : {ref})})

  async function knownPeer(conn: Connection, to: string): Promise<boolean> {
    if (conn.knownPeers.has(to)) return true
    if (!(await service.agentExists(to))) return false
    conn.knownPeers.add(to)
    return true
  }

  async function handle(conn: Connection, frame: ClientFrame): Promise<void> {
    const ref = frame.ref === undefined ? {} : {ref: frame.ref}
    if (frame.msg_type === 'ping') return write(conn, {type: 'pong', ...ref})
    if (frame.msg_type === 'connect_to') {
      try {
        checkMessage(frame.to, null)
      } catch (error) {
        return fail(conn, 'invalid_recipient', (error as Error).message, frame.ref)
      }
      if (!(await knownPeer(conn, frame.to))) return fail(conn, 'unknown_peer', `unknown_peer: no agent ${frame.to} is registered`, frame.ref)
      conn.room = frame.to
      return write(conn, {type: 'room_open', to: frame.to, online: await router.isOnline(frame.to), ...ref})
    }
    const to = frame.to ?? conn.room
    if (to === undefined) return fail(conn, 'no_peer', 'message needs `to`, or a connect_to frame first', frame.ref)
    try {
      checkMessage(to, frame.payload)
    } catch (error) {
      // Only our own errors are worded for clients; anything else would leak an engine message.
      if (!isMeshError(error)) throw error
      return fail(conn, error.code, error.message, frame.ref)
    }
    if (!(await knownPeer(conn, to))) return fail(conn, 'unknown_peer', `unknown_peer: no agent ${to} is registered`, frame.ref)
    const live = await router.sendMessage(conn.agentId, to, frame.payload)
    metrics.messageAccepted('ws')
    if (live.sockets > 0) metrics.messagesDelivered('live', 1)
    if (live.sockets > 0) return write(conn, {type: 'delivered', to, id: live.id, sockets: live.sockets, ...ref})
    // Not connected anywhere: the message joins the store path under the id it already has.
    const {route} = await service.enqueue(conn.agentId, to, frame.payload, live.id)
    write(conn, {type: 'queued', to, id: live.id, via: route, ...ref})
  }

  function onFrame(conn: Connection, data: RawData, isBinary: boolean) {
    conn.alive = true
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength
    if (limiter.take(String(conn.id)) > 0) {
      return fail(conn, 'rate_limited', `rate_limited: more than ${options.rateLimit?.limit ?? WS_RATE_LIMIT} frames in ${(options.rateLimit?.windowMs ?? WS_RATE_WINDOW_MS) / 1000} s; frame dropped`)
    }
    if (size > WS_MAX_FRAME_BYTES) return fail(conn, 'frame_too_large', `frame_too_large: ${size} bytes; the limit is ${WS_MAX_FRAME_BYTES}`)
    if (isBinary) return fail(conn, 'invalid_frame', 'Frames are JSON text, not binary')
    let frame: ClientFrame
    try {
      frame = parseClientFrame(data.toString())
    } catch (error) {
      const frameError = error as FrameError
      return fail(conn, frameError.code ?? 'invalid_frame', frameError.message, frameError.ref)
    }
    conn.queue = conn.queue.then(() =>
      handle(conn, frame).catch((error) => {
        logger.error('agent socket frame failed', {agent_id: conn.agentId, error: String((error as Error)?.message ?? error)})
        fail(conn, 'internal', 'The frame could not be handled; try again', frame.ref)
      }),
    )
  }

  let nextId = 0
  async function onConnection(ws: WebSocket, agentId: string) {
    const conn: Connection = {
      id: ++nextId,
      agentId,
      ws,
      alive: true,
      early: [],
      queue: Promise.resolve(),
      knownPeers: new Set([agentId]),
      send(frame) {
        if (this.early) this.early.push(frame)
        else write(this, frame)
      },
    }
    connections.add(conn)
    ws.on('pong', () => (conn.alive = true))
    ws.on('message', (data, isBinary) => onFrame(conn, data, isBinary))
    ws.on('error', () => ws.terminate())
    let closed = false
    ws.on('close', () => {
      closed = true
      connections.delete(conn)
      router.detach(agentId, conn).catch((error) => logger.warn('presence not removed', {agent_id: agentId, error: String(error)}))
    })
    try {
      await router.attach(agentId, conn)
      const pending = await service.counts(agentId)
      if (closed) return void (await router.detach(agentId, conn))
      write(conn, {
        type: 'welcome',
        agent_id: agentId,
        node_id: router.nodeId,
        inbox: pending.inbox,
        limits: {max_frame_bytes: WS_MAX_FRAME_BYTES, rate_limit: options.rateLimit?.limit ?? WS_RATE_LIMIT, rate_window_ms: options.rateLimit?.windowMs ?? WS_RATE_WINDOW_MS},
      })
      for (const frame of conn.early ?? []) write(conn, frame)
      conn.early = null
    } catch (error) {
      logger.error('agent socket could not attach', {agent_id: agentId, error: String((error as Error)?.message ?? error)})
      ws.close(CLOSE.internal, 'internal')
    }
  }

  return {
    /** The MeshService upgrade hook: takes `/v1/agents/ws`, refusing a bad token with 401 before the handshake. */
    upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      let url: URL
      try {
        url = new URL(request.url ?? '/', 'http://localhost')
      } catch {
        return false // an unparsable target (`GET http://[/…`) is not ours; the host refuses it
      }
      if (url.pathname !== WS_PATH) return false
      if (request.method !== 'GET') {
        refuseUpgrade(socket, 405, 'method_not_allowed', `A WebSocket opens with GET ${WS_PATH}`, {Allow: 'GET'})
        return true
      }
      if (closing) {
        refuseUpgrade(socket, 503, 'server_shutdown', 'The registry is shutting down; reconnect shortly')
        return true
      }
      options.authenticate(tokenOf(request, url)).then(
        (agentId) => {
          if (closing) return refuseUpgrade(socket, 503, 'server_shutdown', 'The registry is shutting down; reconnect shortly')
          wss.handleUpgrade(request, socket, head, (ws) => void onConnection(ws, agentId))
        },
        (error) => {
          if (isMeshError(error)) {
            const retry = error.details?.retry_after
            refuseUpgrade(socket, STATUS_OF_KIND[error.kind], error.code, error.message, typeof retry === 'number' ? {'Retry-After': String(retry)} : {})
          } else {
            logger.error('agent socket authentication failed', {error: String((error as Error)?.message ?? error)})
            refuseUpgrade(socket, 503, 'unavailable', 'Could not check the token; try again')
          }
        },
      )
        // Nothing above is known to throw; if it ever does, the socket goes, not the process (an unhandled rejection).
        .catch((error: unknown) => {
          logger.error('agent socket upgrade failed', {error: String((error as Error)?.message ?? error)})
          socket.destroy()
        })
      return true
    },

    /** Pings every socket; one that missed the previous ping is closed. */
    start() {
      pinger = setInterval(() => {
        for (const conn of connections) {
          if (!conn.alive) {
            conn.ws.terminate()
            continue
          }
          conn.alive = false
          conn.ws.ping()
        }
      }, options.pingIntervalMs ?? WS_PING_INTERVAL_MS)
      pinger.unref?.()
    },

    async close() {
      closing = true
      clearInterval(pinger)
      const gone = [...connections].map((conn) => new Promise<void>((resolve) => {
        conn.ws.once('close', () => resolve())
        conn.ws.close(CLOSE.shutdown, 'server_shutdown')
        setTimeout(() => (conn.ws.terminate(), resolve()), 1000).unref?.()
      }))
      await Promise.all(gone)
      wss.close()
    },

    /** Open sockets on this node (tests, metrics). */
    get size() {
      return connections.size
    },
  }
}
