/**
 * What every area of the daemon is handed: the project, the clock, the one
 * event bus, the debug stream and the portal token. Areas (workflows, links,
 * tasks, versions, storage, team, chat…) read and write through this only,
 * so tests build one with a temp project and an injected clock.
 */
import type {Logger} from '../lib/log.js'
import type {BrowserSessions} from './browser-sessions.js'
import type {DebugStream} from './debug-stream.js'
import type {EventBus} from './events.js'
import type {ChatLimits} from './chat/constants.js'
import type {ProjectWriter} from './project-writer.js'
import type {DaemonSettings} from './settings.js'
import type {Timeline} from './timeline.js'

export interface DaemonContext {
  /** The repository root: the folder that holds `.mesh/`. */
  root: string
  /** `<root>/.mesh/<parts…>` */
  meshPath(...parts: string[]): string
  clock: () => number
  logger: Logger
  events: EventBus
  debug: DebugStream
  /** The portal token (never logged). */
  portalToken: string
  /** The IDE's login codes and browser sessions, in memory for this run only (docs/ide.md). */
  sessions: BrowserSessions
  /** The cluster.yaml `id`, read at start and after every change to the file; null when the file has none. */
  projectId(): string | null
  /** The daemon's version (the package's). */
  version: string
  /** Every rewrite of a project file goes through this: inside .mesh/ only, snapshot first, atomic. */
  writer: ProjectWriter
  /** cluster.yaml as the daemon reads it, refreshed when the file changes. */
  settings(): DaemonSettings
  /** `timeline/<day>.jsonl`: each line appended is also published on `events`. */
  timeline: Timeline
  /** Turn capacity, timeout and delegation limits (`mesh serve` flags). */
  chatLimits: ChatLimits
}
