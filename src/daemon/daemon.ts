/**
 * The local daemon as a service: createDaemon() assembles the context (event
 * bus, debug stream, portal token) and every area's route table into a
 * MeshService; startDaemon() is what `mesh serve` runs — it takes the
 * project's lock, finds a port, writes `.mesh/.runtime/daemon.json`, and
 * undoes all of that on stop. docs/daemon.md.
 */
import type {MeshService} from '../http/service.js'
import {silentLogger, type Logger} from '../lib/log.js'
import {meshPath} from '../standard/project/project-root.js'
import {DEBUG_FILE} from './constants.js'
import type {DaemonArea} from './area.js'
import {DEFAULT_AREAS} from './areas.js'
import type {DaemonContext} from './context.js'
import {createBrowserSessions} from './browser-sessions.js'
import {openDebugStream, type DebugStream} from './debug-stream.js'
import {createEventBus, type EventBus} from './events.js'
import {DEFAULT_CHAT_LIMITS, type ChatLimits} from './chat/constants.js'
import {createTimeline} from './timeline.js'
import {debugRoutes} from './debug/routes.js'
import {healthRoutes} from './health.js'
import {createDaemonMiddleware} from './http/app.js'
import {createEventsSocket} from './http/events-socket.js'
import {builtChatParts} from './chat/index.js'
import {metricsRoutes} from './metrics/routes.js'
import {createDaemonWork} from './metrics/work.js'
import {loadPortalToken} from './portal-token.js'
import {assertRealMeshFolder, reportRefused} from './project-files.js'
import {createProjectWriter} from './project-writer.js'
import {readDaemonSettings, type DaemonSettings} from './settings.js'
import {packageVersion} from './version.js'

export interface DaemonOptions {
  /** The repository root (the folder holding `.mesh/`). */
  root: string
  clock?: () => number
  logger?: Logger
  /** The areas to run (default: DEFAULT_AREAS of areas.ts); /health, /info and /debug are always there. */
  areas?: Array<(context: DaemonContext) => DaemonArea>
  /** Filled in once the daemon listens; /health and /info report it. */
  endpoint?: () => string
  /** Turn capacity, timeout and delegation limits; unset ones take DEFAULT_CHAT_LIMITS. */
  chat?: Partial<ChatLimits>
}

export interface Daemon {
  context: DaemonContext
  settings(): DaemonSettings
  service: MeshService
  /** What /health warns about now (`mesh serve` prints it with its start line). */
  warnings(): Promise<string[]>
}

export async function createDaemon(options: DaemonOptions): Promise<Daemon> {
  const clock = options.clock ?? Date.now
  const logger = options.logger ?? silentLogger
  const root = options.root
  let settings = await readDaemonSettings(root)
  const events: EventBus = createEventBus({clock, onListenerError: (error) => logger.warn('event listener failed', {error: String(error)})})
  await assertRealMeshFolder(root)
  const debug: DebugStream = await openDebugStream({root: meshPath(root), path: DEBUG_FILE, clock})
  const portalToken = await loadPortalToken(root)
  const context: DaemonContext = {
    root,
    meshPath: (...parts) => meshPath(root, ...parts),
    clock,
    logger,
    events,
    debug,
    portalToken,
    sessions: createBrowserSessions({clock}),
    projectId: () => settings.id,
    version: packageVersion(),
    writer: createProjectWriter({root, clock, snapshotsEnabled: () => settings.snapshots.enabled, onRefused: (error) => reportRefused({debug}, error)}),
    settings: () => settings,
    timeline: createTimeline({meshPath: (...parts) => meshPath(root, ...parts), clock, events, debug}),
    chatLimits: {...DEFAULT_CHAT_LIMITS, ...options.chat},
  }
  for (const problem of settings.problems) debug.log({lvl: 'warn', tag: 'boot', msg: problem})

  const startedAt = new Date(clock()).toISOString()
  const areas = (options.areas ?? DEFAULT_AREAS).map((build) => build(context))
  const health = healthRoutes(context, {endpoint: options.endpoint ?? (() => ''), startedAt, warnings: areas.flatMap((a) => (a.warnings ? [() => a.warnings!()] : [])), extra: areas.flatMap((a) => (a.health ? [a.health] : []))})
  const socket = createEventsSocket(context)
  const work = createDaemonWork(context, {engine: builtChatParts(context)?.engine, eventSubscribers: () => socket.clients})
  const tables = [health.routes, debugRoutes(context), metricsRoutes(work), ...areas.map((a) => a.routes)]
  const middleware = createDaemonMiddleware(context, tables)

  // cluster.yaml may be edited while the daemon runs: the project id and settings follow it.
  events.subscribe((event) => {
    if (event.type === 'cluster.updated') void readDaemonSettings(root).then((next) => (settings = next))
  })

  const service: MeshService = {
    name: 'daemon',
    middleware,
    upgrade: (request, rawSocket, head) => socket.upgrade(request, rawSocket, head),
    async start() {
      for (const area of areas) await area.start?.()
    },
    async close() {
      // Areas first: the chat area's shutdown finals go out on /events before the sockets close (issue 19),
      // so `mesh ask` says its turn was stopped rather than losing the daemon.
      for (const area of [...areas].reverse()) await area.close?.()
      work.close()
      await socket.close()
      // A stopped daemon's IDE sessions die with it (issue 22).
      context.sessions.clear()
      await context.timeline.flush()
      await debug.close()
    },
  }
  return {context, settings: () => settings, service, warnings: health.warnings}
}
