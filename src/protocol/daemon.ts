/**
 * Where the local daemon and the commands that talk to it meet
 * (DECISIONS: Daemon runtime, Daemon auth; spec Limits): the runtime file
 * the daemon writes and every command reads, with its parser, the address it
 * listens on and its event stream's path. Paths are relative to `.mesh/`.
 * Nothing here imports anything.
 */

/** The project folder inside a repository (spec: Folder layout); the paths below are relative to it. */
export const MESH_DIR = '.mesh'

/** spec Authentication: the shared daemon binds loopback only. */
export const DAEMON_HOST = '127.0.0.1'

/** spec Limits: default port 5570; the first free port in 5570–5589 is used. */
export const DAEMON_PORT_FIRST = 5570
export const DAEMON_PORT_LAST = 5589

export const RUNTIME_DIR = '.runtime'
/** `{port, pid, started_at, version}` while a daemon serves the project. */
export const DAEMON_FILE = '.runtime/daemon.json'
export const DEBUG_FILE = '.runtime/debug.jsonl'
/** The portal token, mode 0600. */
export const PORTAL_TOKEN_FILE = 'credentials/portal-token'

/** The header that names the project a request means (its cluster.yaml id). */
export const PROJECT_HEADER = 'x-mesh-project'

/** `WS /events`: every event of the daemon's bus, one envelope per message (src/protocol/events.ts). */
export const EVENTS_PATH = '/events'

/** The content of daemon.json. */
export interface DaemonRuntime {
  port: number
  pid: number
  started_at: string
  version: string
  /**
   * The real path of the project the daemon serves (a mesh addition to
   * DECISIONS' shape): a copied project folder carries a daemon.json naming
   * the original's live daemon, which must not be taken for its own.
   */
  root?: string
}

const isRuntime = (value: unknown): value is DaemonRuntime => {
  const v = value as DaemonRuntime
  return !!v && Number.isInteger(v.port) && Number.isInteger(v.pid) && typeof v.started_at === 'string' && typeof v.version === 'string' && (v.root === undefined || typeof v.root === 'string')
}

/** daemon.json's text as the runtime it names, or null when it is missing (null), torn or hand-edited out of shape. */
export function parseDaemonRuntime(text: string | null): DaemonRuntime | null {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(text)
    return isRuntime(value) ? value : null
  } catch {
    return null
  }
}

/**
 * Whether `runtime` was written by a daemon serving the project whose real
 * path is `realRoot` (one written before `root` was recorded counts).
 */
export const servesRoot = (runtime: DaemonRuntime, realRoot: string): boolean => runtime.root === undefined || runtime.root === realRoot

/** Where the daemon of `runtime` answers: `http://127.0.0.1:<port>`. */
export const daemonUrl = (runtime: Pick<DaemonRuntime, 'port'>): string => `http://${DAEMON_HOST}:${runtime.port}`
