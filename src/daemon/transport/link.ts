/**
 * The daemon's one member socket to the project's cluster: the client's
 * ClusterConnection (capped, jittered reconnects; src/client/cluster), with
 * what the daemon makes of it — one debug line per attempt, messages onto
 * the event bus, a state for /health. Never the token, never a query, in
 * anything it says. docs/daemon.md, Transport.
 */
import type WebSocketClass from 'ws'
import {createBackoff, type BackoffOptions} from '../../client/cluster/backoff.js'
import {ClusterConnection, type ConnectionStatus} from '../../client/cluster/connection.js'
import {redactUrl} from '../../client/cluster/socket.js'
import type {DaemonContext} from '../context.js'
import {DAEMON_VIS, MESSAGE_EVENT, TAG_CLOSED, TAG_CONNECT, TAG_FAILED, TAG_RECONNECT} from './constants.js'
import type {TransportSocket} from './target.js'

/** `connecting`: not connected yet; `reconnecting`: connected before, trying again; `deleted`, `failed`: final. */
export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'deleted' | 'failed' | 'stopped'

export interface LinkSnapshot {
  state: LinkState
  /** Clock time the state began. */
  since: number
  /** Retries scheduled since the last connect. */
  attempt: number
  lastError: string | null
}

export interface LinkOptions {
  now: () => number
  /**
   * Told when this socket is given up: refused (401, 403, 404) or `attempts`
   * connects failed in a row; the area then tries `transport.fallback`
   * (docs/daemon.md, Transport). Without it the link keeps retrying.
   */
  failover?: {attempts: number; onGiveUp(why: 'refused' | 'unreachable'): void}
  backoff?: BackoffOptions
  WebSocket?: typeof WebSocketClass
}

export interface TransportLink {
  start(): void
  close(): void
  snapshot(): LinkSnapshot
}

/** The socket this link joins, and the daemon's handle. */
type ConnectTarget = TransportSocket & {handle: string}

/** Removes the socket URL's query, user info and the token from a message of the client. */
export function scrubber(target: ConnectTarget): (text: string) => string {
  return (text) => {
    let out = text.split(target.url).join(target.endpoint).split(redactUrl(target.url)).join(target.endpoint)
    out = out.replace(/\b((?:wss?|https?):\/\/)[^\s/@]*@/gi, '$1').replace(/\b((?:wss?|https?):\/\/[^\s?#]*)[?#][^\s]*/gi, '$1')
    if (target.token) out = out.split(target.token).join('***')
    return out
  }
}

export function createTransportLink(context: DaemonContext, target: ConnectTarget, options: LinkOptions): TransportLink {
  const scrub = scrubber(target)
  const {now} = options
  const connection = new ClusterConnection({
    url: target.url,
    clusterId: target.clusterId,
    // The daemon starts whether the relay is up or not, and keeps trying (the backoff is capped at 30 s).
    retryInitial: true,
    backoff: createBackoff(options.backoff),
    WebSocket: options.WebSocket,
    now,
  })
  let state: LinkSnapshot = {state: 'connecting', since: now(), attempt: 0, lastError: null}
  let everConnected = false
  const data = (extra: Record<string, unknown> = {}) => ({endpoint: target.endpoint, cluster_id: target.clusterId, handle: target.handle, ...extra})
  const become = (next: LinkState, changes: Partial<LinkSnapshot> = {}) => {
    state = {...state, ...changes, state: next, since: next === state.state ? state.since : now()}
  }

  const onStatus = (status: ConnectionStatus) => {
    if (status.state === 'connected') {
      const retries = state.attempt
      if (everConnected) {
        context.debug.log({lvl: 'info', tag: TAG_RECONNECT, msg: `reconnected to ${target.endpoint} after ${retries} ${retries === 1 ? 'retry' : 'retries'}`, data: data({attempt: retries})})
      } else {
        context.debug.log({lvl: 'info', tag: TAG_CONNECT, msg: `connected to ${target.endpoint} as ${target.handle} (${DAEMON_VIS})`, data: data({attempt: retries})})
      }
      everConnected = true
      become('connected', {attempt: 0, lastError: null})
    } else if (status.state === 'reconnecting') {
      const lost = state.state === 'connected'
      const error = scrub(status.lastError ?? 'unknown error')
      const delay = status.retryInMs ?? 0
      become(everConnected ? 'reconnecting' : 'connecting', {attempt: status.attempt, lastError: error})
      // One line per attempt; the attempts are spaced by the backoff (capped at 30 s).
      const msg = lost ? `connection to ${target.endpoint} lost (${error}); retry ${status.attempt} in ${delay} ms` : `${everConnected ? 'reconnect' : 'connect'} to ${target.endpoint} failed (${error}); retry ${status.attempt} in ${delay} ms`
      context.debug.log({lvl: lost ? 'warn' : 'info', tag: TAG_RECONNECT, msg, data: data({attempt: status.attempt, delay_ms: delay, error})})
      if (options.failover && status.attempt >= options.failover.attempts) options.failover.onGiveUp('unreachable')
    }
  }
  const onGone = () => {
    become('deleted', {lastError: `cluster ${target.clusterId} was deleted on the relay`})
    context.debug.log({lvl: 'warn', tag: TAG_CLOSED, msg: `cluster ${target.clusterId} was deleted on the relay at ${target.endpoint}; the daemon no longer connects to it`, data: data()})
  }
  const onFatal = (error: Error & {code?: string}) => {
    const message = scrub(error.message)
    become('failed', {lastError: message})
    context.debug.log({lvl: 'error', tag: TAG_FAILED, msg: `the relay at ${target.endpoint} refused the daemon: ${message}`, data: data({code: error.code})})
    options.failover?.onGiveUp('refused')
  }

  connection.on('status', onStatus)
  connection.on('gone', onGone)
  connection.on('fatal', onFatal)
  connection.on('message', (frame) => {
    context.events.publish(MESSAGE_EVENT, {from: frame.from, to: frame.to, payload: frame.payload, ts: frame.ts})
  })

  return {
    start() {
      // Outcomes arrive as events above; the promise only settles the first connect.
      connection.connect().catch(() => {})
    },
    close() {
      connection.removeAllListeners()
      connection.close()
      become('stopped')
    },
    snapshot: () => ({...state}),
  }
}
