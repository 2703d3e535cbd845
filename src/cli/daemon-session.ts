/**
 * How a command that needs the running daemon reaches it: find the project
 * (`--dir`, then upward), read `.mesh/.runtime/daemon.json` and the portal
 * token (DECISIONS: Daemon runtime, Daemon auth), and call routes with it.
 * No daemon is one clear error naming `mesh serve`, never a connection error.
 */
import {MeshError} from '../lib/errors.js'

export interface DaemonSession {
  /** The repository root (the folder holding `.mesh/`). */
  root: string
  /** `http://127.0.0.1:<port>` */
  url: string
  /** A JSON call with the portal token; the daemon's errors come back as MeshErrors with its code. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>
}

/** The daemon serving the project at or above `dir`, or `daemon_not_running` (exit 1). */
export async function connectDaemon(dir: string | undefined): Promise<DaemonSession> {
  const {findProjectRoot} = await import('../standard/project/project-root.js')
  const root = await findProjectRoot(dir ?? process.cwd())
  const found = await sessionIfRunning(root)
  if (found.session) return found.session
  const left = found.stalePid !== null ? ` (the last one, pid ${found.stalePid}, did not stop cleanly)` : ''
  throw new MeshError('unavailable', 'daemon_not_running', `No daemon serves this project${left}; start it with \`mesh serve\` (or \`mesh serve --detach\`)`)
}

/**
 * The session with the daemon serving the project at `root`, or none (a daemon.json naming a dead process
 * counts as none: `stalePid` names it). A daemon that runs without its portal token is `portal_token_missing`.
 */
export async function sessionIfRunning(root: string): Promise<{session: DaemonSession; stalePid: null} | {session: null; stalePid: number | null}> {
  const [{locateDaemon, readPortalToken}, {callDaemon}] = await Promise.all([import('../client/daemon/locate.js'), import('../client/daemon/daemon-client.js')])
  const found = await locateDaemon(root)
  if (found.state !== 'running') return {session: null, stalePid: found.state === 'stale' ? found.runtime.pid : null}
  const token = await readPortalToken(root)
  if (!token) throw new MeshError('not_found', 'portal_token_missing', 'The daemon runs but its portal token (.mesh/credentials/portal-token) is missing; restart it with `mesh serve`')
  const {url} = found
  return {session: {root, url, call: (method, path, body) => callDaemon({url, token, method, path, body})}, stalePid: null}
}
