/**
 * How a command finds the project's daemon: `.mesh/.runtime/daemon.json`
 * (DECISIONS: Daemon runtime) naming a live process, and the portal token in
 * `.mesh/credentials/portal-token`. The daemon writes both (src/daemon/).
 */
import {realpath} from 'node:fs/promises'
import {readContainedText} from '../../lib/contained-files.js'
import {join, resolve} from 'node:path'
import {DAEMON_FILE, MESH_DIR, PORTAL_TOKEN_FILE} from '../../protocol/daemon.js'

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


/** Whether a process with this pid exists (EPERM: it exists but is not ours). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const isRuntime = (value: unknown): value is DaemonRuntime => {
  const v = value as DaemonRuntime
  return !!v && Number.isInteger(v.port) && Number.isInteger(v.pid) && typeof v.started_at === 'string' && typeof v.version === 'string' && (v.root === undefined || typeof v.root === 'string')
}

/** The project's real path, as a daemon.json names it. */
export const projectRealPath = (root: string) => realpath(root).catch(() => resolve(root))

/** Whether `runtime` was written by a daemon serving the project at `root` (one written before `root` was recorded counts). */
export async function servesProject(runtime: DaemonRuntime, root: string): Promise<boolean> {
  return runtime.root === undefined || runtime.root === (await projectRealPath(root))
}

/** daemon.json of the project at `root` when it exists and is well-formed, else null (a torn or hand-edited file counts as absent). */
export async function readRuntime(root: string): Promise<DaemonRuntime | null> {
  try {
    // Never through a link (issue 18): a linked runtime file or token is as good as none.
    const value: unknown = JSON.parse((await readContainedText(join(root, MESH_DIR), DAEMON_FILE)) ?? '')
    return isRuntime(value) ? value : null
  } catch {
    return null
  }
}

export type DaemonLocation =
  | {state: 'running'; runtime: DaemonRuntime; url: string}
  | {state: 'stale'; runtime: DaemonRuntime}
  | {state: 'stopped'}

/** Where the project's daemon is: running (its process lives), stale (left by a killed daemon) or stopped. */
export async function locateDaemon(root: string): Promise<DaemonLocation> {
  const runtime = await readRuntime(root)
  if (!runtime) return {state: 'stopped'}
  // A daemon.json copied along with the folder names another project's daemon: for this project, it is stale.
  if (!isProcessAlive(runtime.pid) || !(await servesProject(runtime, root))) return {state: 'stale', runtime}
  return {state: 'running', runtime, url: `http://127.0.0.1:${runtime.port}`}
}

/** The portal token, or null when the daemon never ran here. */
export async function readPortalToken(root: string): Promise<string | null> {
  const text = await readContainedText(join(root, MESH_DIR), PORTAL_TOKEN_FILE).catch(() => null)
  return text?.trim() || null
}
