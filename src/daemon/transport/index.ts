/**
 * The transport area: keeps the daemon on the project's live channel —
 * cluster.yaml `transport` (spec: cluster.yaml), normally a cluster of the
 * mesh relay — as the ghost member `daemon:<id>`, so IDEs on /events hear the
 * project's room (`transport.message`), and /health tells whether it is
 * connected. Other workflows and non-WebSocket endpoints are skipped with one
 * debug line. It connects in the background: the daemon never waits for it.
 * docs/daemon.md, Transport; docs/daemon-api.md, Transport.
 */
import type WebSocketClass from 'ws'
import type {BackoffOptions} from '../../client/cluster/backoff.js'
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {readDaemonSettings} from '../settings.js'
import {DISCONNECTED_WARN_MS, INVITE_FILE, TAG_SKIPPED} from './constants.js'
import type {LinkState, TransportLink} from './link.js'
import {resolveTarget, type TransportTarget} from './target.js'

export {MESSAGE_EVENT, TRANSPORT_ENV} from './constants.js'

export interface TransportAreaOptions {
  /** The environment read for MESH_DAEMON_TRANSPORT (default process.env). */
  env?: NodeJS.ProcessEnv
  /** The clock of `since` and of the disconnected warning (default the daemon's). */
  now?: () => number
  /** Not connected this long gives a /health warning (default 60 s). */
  warnAfterMs?: number
  /** Reconnect schedule (default the cluster client's: 0.5 s doubling to 30 s, jittered). */
  backoff?: BackoffOptions
  WebSocket?: typeof WebSocketClass
}

/** `transport` of /health. */
export interface TransportHealth {
  state: LinkState | 'off' | 'skipped' | 'starting'
  /** The endpoint without its query (null when cluster.yaml has none). */
  endpoint: string | null
  /** ISO time the state began. */
  since: string
  handle?: string
  /** Retries since the last connect. */
  attempt?: number
  last_error?: string
  /** Why the daemon does not connect (`off`, `skipped`). */
  reason?: string
}

export interface TransportArea extends DaemonArea {
  status(): TransportHealth
  /** Resolves once the target in force follows cluster.yaml again (after a change). */
  settled(): Promise<void>
}

export function createTransportArea(context: DaemonContext, options: TransportAreaOptions = {}): TransportArea {
  const now = options.now ?? context.clock
  const warnAfterMs = options.warnAfterMs ?? DISCONNECTED_WARN_MS
  let target: TransportTarget | null = null
  let link: TransportLink | null = null
  let idleSince = now()
  let closed = false
  let applying: Promise<void> = Promise.resolve()
  let unsubscribe: (() => void) | undefined

  // The target's identity: a change of endpoint, workflow or token reconnects; anything else in cluster.yaml does not.
  const keyOf = (t: TransportTarget) => (t.kind === 'connect' ? `connect ${t.url}` : `${t.kind} ${t.reason}`)

  const apply = (read: () => Promise<TransportTarget>) => {
    applying = applying.then(async () => {
      if (closed) return
      const next = await read()
      if (closed || (target && keyOf(target) === keyOf(next))) return
      // The link and the cluster client load when a transport is configured, not at every daemon's start.
      const createLink = next.kind === 'connect' ? (await import('./link.js')).createTransportLink : undefined
      if (closed) return
      link?.close()
      link = null
      target = next
      idleSince = now()
      if (next.kind === 'connect') {
        for (const note of next.notes) context.debug.log({lvl: 'warn', tag: 'transport', msg: note})
        link = createLink!(context, next, {now, backoff: options.backoff, WebSocket: options.WebSocket})
        link.start()
      } else {
        context.debug.log({lvl: 'info', tag: TAG_SKIPPED, msg: `not connecting to the project's transport: ${next.reason}`, data: {endpoint: next.endpoint}})
      }
    }).catch((error: unknown) => {
      context.debug.log({lvl: 'error', tag: 'transport', msg: `the transport could not be set up: ${error instanceof Error ? error.message : String(error)}`})
    })
    return applying
  }
  const resolveWith = (settings: ReturnType<DaemonContext['settings']>) => () =>
    resolveTarget({settings, env: options.env ?? process.env, invitePath: context.meshPath(...INVITE_FILE)})

  const status = (): TransportHealth => {
    if (!target) return {state: 'starting', endpoint: null, since: new Date(idleSince).toISOString()}
    if (target.kind !== 'connect') return {state: target.kind, endpoint: target.endpoint, since: new Date(idleSince).toISOString(), reason: target.reason}
    const snap = link!.snapshot()
    return {
      state: snap.state,
      endpoint: target.endpoint,
      since: new Date(snap.since).toISOString(),
      handle: target.handle,
      attempt: snap.attempt,
      ...(snap.lastError ? {last_error: snap.lastError} : {}),
    }
  }

  return {
    name: 'transport',
    routes: [],
    async start() {
      await apply(resolveWith(context.settings()))
      // cluster.yaml edited while the daemon runs: read it again (the daemon's copy may not be updated yet).
      unsubscribe = context.events.subscribe((event) => {
        if (event.type === 'cluster.updated') void apply(async () => resolveWith(await readDaemonSettings(context.root))())
      })
    },
    async close() {
      closed = true
      unsubscribe?.()
      await applying
      link?.close()
    },
    warnings() {
      if (!target || target.kind !== 'connect' || !link) return []
      const snap = link.snapshot()
      const error = snap.lastError ? `; last error: ${snap.lastError}` : ''
      if (snap.state === 'failed') return [`transport: the relay at ${target.endpoint} refused the daemon${error}; fix transport.endpoint or .mesh/credentials/invite.url, then save cluster.yaml or restart the daemon`]
      if (snap.state === 'deleted') return [`transport: cluster ${target.clusterId} was deleted on the relay at ${target.endpoint}; the daemon no longer connects to it`]
      if (snap.state !== 'connecting' && snap.state !== 'reconnecting') return []
      const away = now() - snap.since
      if (away <= warnAfterMs) return []
      return [`transport: not connected to ${target.endpoint} for ${Math.round(away / 1000)} s (retry ${snap.attempt}${error})`]
    },
    health: () => ({transport: status()}),
    status,
    settled: () => applying,
  }
}

/** The entry of DEFAULT_AREAS. */
export const transportArea = (context: DaemonContext): DaemonArea => createTransportArea(context)
