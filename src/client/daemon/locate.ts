/**
 * How a command finds the project's daemon: `.mesh/.runtime/daemon.json`
 * (DECISIONS: Daemon runtime; its shape and parser in src/protocol/daemon.ts)
 * naming a live process, and the portal token in
 * `.mesh/credentials/portal-token`. The daemon writes both (src/daemon/).
 */
import {join} from 'node:path'
import {readContainedText} from '../../lib/contained-files.js'
import {isProcessAlive} from '../../lib/process-alive.js'
import {projectRealPath} from '../../lib/real-path.js'
import {DAEMON_FILE, MESH_DIR, PORTAL_TOKEN_FILE, daemonUrl, parseDaemonRuntime, servesRoot, type DaemonRuntime} from '../../protocol/daemon.js'

/** daemon.json of the project at `root` when it exists and is well-formed, else null (a torn or hand-edited file counts as absent). */
export async function readRuntime(root: string): Promise<DaemonRuntime | null> {
  // Never through a link (issue 18): a linked runtime file or token is as good as none.
  return parseDaemonRuntime(await readContainedText(join(root, MESH_DIR), DAEMON_FILE).catch(() => null))
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
  if (!isProcessAlive(runtime.pid) || !servesRoot(runtime, await projectRealPath(root))) return {state: 'stale', runtime}
  return {state: 'running', runtime, url: daemonUrl(runtime)}
}

/** The portal token, or null when the daemon never ran here. */
export async function readPortalToken(root: string): Promise<string | null> {
  const text = await readContainedText(join(root, MESH_DIR), PORTAL_TOKEN_FILE).catch(() => null)
  return text?.trim() || null
}
