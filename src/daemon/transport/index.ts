/**
 * The transport area: keeps the daemon on the project's live channel —
 * cluster.yaml `transport` (spec: cluster.yaml), normally a cluster of the
 * mesh relay — as the ghost member `daemon:<id>`, so IDEs on /events hear the
 * project's room (`transport.message`), and /health tells whether it is
 * connected. `transport.fallback` is tried when the endpoint fails; a project
 * not linked yet is one calm /health line; other workflows and non-WebSocket
 * endpoints are skipped with one debug line and a /health warning. It
 * connects in the background: the daemon never waits for it.
 * docs/daemon.md, Transport; docs/daemon-api.md, Transport.
 */
import type WebSocketClass from 'ws'
import type {BackoffOptions} from '../../client/cluster/backoff.js'
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {readDaemonSettings} from '../settings.js'
import {DISCONNECTED_WARN_MS, FAILOVER_AFTER_ATTEMPTS, INVITE_FILE, TAG_FALLBACK, TAG_SKIPPED} from './constants.js'
import type {LinkState, TransportLink, createTransportLink} from './link.js'
import type {TransportOverride} from './override.js'
import {NOT_LINKED, readLinked, resolveTarget, type TransportTarget} from './target.js'

export {MESSAGE_EVENT, TRANSPORT_ENV} from './constants.js'
export {createTransportOverride, type TransportOverride} from './override.js'

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
  /** A socket set by the process that runs the daemon (`mesh up`), in place of cluster.yaml's (./override.ts). */
  override?: TransportOverride
}

/** `transport` of /health. */
export interface TransportHealth {
  state: LinkState | 'off' | 'skipped' | 'unlinked' | 'starting'
  /** The endpoint in use, without its query (null when cluster.yaml has none). */
  endpoint: string | null
  /** ISO time the state began. */
  since: string
  handle?: string
  /** The socket in use: cluster.yaml's endpoint or fallback, or `mesh up`'s embedded relay. */
  using?: 'endpoint' | 'fallback' | 'embedded'
  /** Retries since the last connect. */
  attempt?: number
  last_error?: string
  /** Why the daemon does not connect (`off`, `skipped`, `unlinked`). */
  reason?: string
}

export interface TransportArea extends DaemonArea {
  status(): TransportHealth
  /** Resolves once the target in force follows cluster.yaml again (after a change). */
  settled(): Promise<void>
}

type ConnectTarget = Extract<TransportTarget, {kind: 'connect'}>

export function createTransportArea(context: DaemonContext, options: TransportAreaOptions = {}): TransportArea {
  const now = options.now ?? context.clock
  const warnAfterMs = options.warnAfterMs ?? DISCONNECTED_WARN_MS
  let target: TransportTarget | null = null
  let link: TransportLink | null = null
  /** 0: the endpoint, 1: the fallback. */
  let socketIndex = 0
  /** Sockets that refused the daemon since the target was set: when every one did, the daemon stops. */
  let refused = new Set<number>()
  let idleSince = now()
  let closed = false
  let applying: Promise<void> = Promise.resolve()
  const unsubscribes: Array<() => void> = []

  // The target's identity: a change of endpoint, fallback, workflow or token reconnects; anything else in cluster.yaml does not.
  const keyOf = (t: TransportTarget) => (t.kind === 'connect' ? `connect ${t.url} ${t.fallback?.url ?? ''}` : `${t.kind} ${t.reason}`)
  const sockets = (t: ConnectTarget) => (t.fallback ? [t, t.fallback] : [t])
  const using = (): TransportHealth['using'] => (options.override?.current() ? 'embedded' : socketIndex === 0 ? 'endpoint' : 'fallback')

  const connectTo = (createLink: typeof createTransportLink, t: ConnectTarget, index: number) => {
    link?.close()
    socketIndex = index
    const all = sockets(t)
    const socket = all[index]
    const failover =
      all.length > 1
        ? {
            attempts: FAILOVER_AFTER_ATTEMPTS,
            onGiveUp(why: 'refused' | 'unreachable') {
              if (why === 'refused') refused.add(index)
              const next = (index + 1) % all.length
              // Both refused the daemon: it stays on the last one, failed (a /health warning says so).
              if (refused.has(next) || closed || target !== t || socketIndex !== index) return
              context.debug.log({lvl: 'warn', tag: TAG_FALLBACK, msg: `${socket.endpoint} ${why === 'refused' ? 'refused the daemon' : `failed ${FAILOVER_AFTER_ATTEMPTS} times in a row`}; trying ${next === 1 ? 'transport.fallback' : 'transport.endpoint'} ${all[next].endpoint}`, data: {from: socket.endpoint, to: all[next].endpoint}})
              // Out of the link's own event handler before it is closed.
              queueMicrotask(() => {
                if (!closed && target === t && socketIndex === index) connectTo(createLink, t, next)
              })
            },
          }
        : undefined
    link = createLink(context, {...socket, handle: t.handle}, {now, backoff: options.backoff, WebSocket: options.WebSocket, failover})
    link.start()
  }

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
      refused = new Set()
      idleSince = now()
      if (next.kind === 'connect') {
        for (const note of next.notes) context.debug.log({lvl: 'warn', tag: 'transport', msg: note})
        connectTo(createLink!, next, 0)
      } else {
        context.debug.log({lvl: 'info', tag: TAG_SKIPPED, msg: next.kind === 'unlinked' ? `the project is ${NOT_LINKED}` : `not connecting to the project's transport: ${next.reason}`, data: {endpoint: next.endpoint}})
      }
    }).catch((error: unknown) => {
      context.debug.log({lvl: 'error', tag: 'transport', msg: `the transport could not be set up: ${error instanceof Error ? error.message : String(error)}`})
    })
    return applying
  }
  const resolveWith = (settings: ReturnType<DaemonContext['settings']>) => async () =>
    resolveTarget({
      settings,
      env: options.env ?? process.env,
      invitePath: context.meshPath(...INVITE_FILE),
      linked: await readLinked(context.root),
      override: options.override?.current() ?? null,
    })

  const status = (): TransportHealth => {
    if (!target) return {state: 'starting', endpoint: null, since: new Date(idleSince).toISOString()}
    if (target.kind !== 'connect') return {state: target.kind, endpoint: target.endpoint, since: new Date(idleSince).toISOString(), reason: target.reason}
    const snap = link!.snapshot()
    return {
      state: snap.state,
      endpoint: sockets(target)[socketIndex].endpoint,
      since: new Date(snap.since).toISOString(),
      handle: target.handle,
      using: using(),
      attempt: snap.attempt,
      ...(snap.lastError ? {last_error: snap.lastError} : {}),
    }
  }

  return {
    name: 'transport',
    routes: [],
    async start() {
      await apply(resolveWith(context.settings()))
      // cluster.yaml edited (or linked) while the daemon runs: read it again (the daemon's copy may not be updated yet).
      unsubscribes.push(
        context.events.subscribe((event) => {
          if (event.type === 'cluster.updated') void apply(async () => resolveWith(await readDaemonSettings(context.root))())
        }),
      )
      if (options.override) unsubscribes.push(options.override.onChange(() => void apply(async () => resolveWith(await readDaemonSettings(context.root))())))
    },
    async close() {
      closed = true
      for (const unsubscribe of unsubscribes) unsubscribe()
      await applying
      link?.close()
    },
    warnings() {
      // Not linked is no fault: /health's transport says it in one calm line, and no warning is raised.
      if (target?.kind === 'skipped') return [`transport: not connected: ${target.reason}`]
      if (!target || target.kind !== 'connect' || !link) return []
      const snap = link.snapshot()
      const endpoint = sockets(target)[socketIndex].endpoint
      const error = snap.lastError ? `; last error: ${snap.lastError}` : ''
      if (snap.state === 'failed') return [`transport: the relay at ${endpoint} refused the daemon${error}; fix transport.endpoint or .mesh/credentials/invite.url (or run \`mesh cluster link\`), then save cluster.yaml or restart the daemon`]
      if (snap.state === 'deleted') return [`transport: cluster ${sockets(target)[socketIndex].clusterId} was deleted on the relay at ${endpoint}; the daemon no longer connects to it (\`mesh cluster link\` creates a new one)`]
      if (snap.state !== 'connecting' && snap.state !== 'reconnecting') return []
      const away = now() - snap.since
      if (away <= warnAfterMs) return []
      return [`transport: not connected to ${endpoint} for ${Math.round(away / 1000)} s (retry ${snap.attempt}${error})`]
    },
    health: () => ({transport: status()}),
    status,
    settled: () => applying,
  }
}

/** The entry of DEFAULT_AREAS. */
export const transportArea = (context: DaemonContext): DaemonArea => createTransportArea(context)
