/**
 * `.mesh/.runtime/daemon.json` — how every other command finds the daemon
 * (DECISIONS: Daemon runtime) — and the lock that lets only one daemon serve
 * a project. The lock is a file created exclusively that holds the owner's
 * pid; a lock or runtime file left by a killed daemon names a dead pid and is
 * taken over (docs/daemon.md, Start and find).
 */
import {rm} from 'node:fs/promises'
import {createContainedFileExclusive, readContainedText, writeContainedFile} from '../lib/contained-files.js'
import {conflict} from '../lib/errors.js'
import {isProcessAlive} from '../lib/process-alive.js'
import {projectRealPath} from '../lib/real-path.js'
import {daemonUrl, parseDaemonRuntime, servesRoot, type DaemonRuntime} from '../protocol/daemon.js'
import {meshPath} from '../standard/project/project-root.js'
import {DAEMON_FILE, RUNTIME_DIR} from './constants.js'

const LOCK_FILE = `${RUNTIME_DIR}/daemon.lock`

// Written and read without following a link (issue 18): a linked .runtime/ is refused, never written through.
export const writeRuntime = (root: string, runtime: DaemonRuntime) => writeContainedFile(meshPath(root), DAEMON_FILE, JSON.stringify(runtime, null, 2) + '\n').then(() => undefined)
/** daemon.json as it is now, or null when it is absent or out of shape (the shape is src/protocol/daemon.ts's). */
export const readRuntime = async (root: string) => parseDaemonRuntime(await readContainedText(meshPath(root), DAEMON_FILE).catch(() => null))

/** The lock holds `<pid> <real root>` (the root since issue 20: a lock copied with the folder names another project). */
async function readLock(root: string): Promise<{pid: number; root: string | null}> {
  const [pid = '', ...rest] = ((await readContainedText(meshPath(root), LOCK_FILE).catch(() => null)) ?? '').trim().split(' ')
  return {pid: Number(pid), root: rest.length ? rest.join(' ') : null}
}
const readLockOwner = async (root: string) => (await readLock(root)).pid

/** Removes daemon.json only while it still names `pid`, so a stopping daemon never removes a successor's. */
export async function removeRuntime(root: string, pid = process.pid): Promise<void> {
  const runtime = await readRuntime(root)
  if (!runtime || runtime.pid === pid) await rm(meshPath(root, DAEMON_FILE), {force: true})
}

/**
 * Takes the project's daemon lock for this process, or throws `daemon_running`
 * naming the live owner. A lock whose pid is dead is removed and taken.
 * Returns the release function.
 */
export async function acquireDaemonLock(root: string): Promise<() => Promise<void>> {
  const path = meshPath(root, LOCK_FILE)
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createContainedFileExclusive(meshPath(root), LOCK_FILE, `${process.pid} ${await projectRealPath(root)}`)) {
      return async () => {
        if ((await readLockOwner(root)) === process.pid) await rm(path, {force: true})
      }
    }
    const lock = await readLock(root)
    const owner = lock.pid
    const runtime = await readRuntime(root)
    // A lock copied with the folder names the original's live daemon, and the original's root.
    const copied = lock.root !== null ? lock.root !== (await projectRealPath(root)) : runtime !== null && runtime.pid === owner && !servesRoot(runtime, await projectRealPath(root))
    if (isProcessAlive(owner) && !copied) {
      const where = runtime && runtime.pid === owner ? ` on ${daemonUrl(runtime)}` : ''
      throw conflict('daemon_running', `Another mesh daemon (pid ${owner}) already serves this project${where}; stop it with \`mesh daemon stop\``)
    }
    // Left by a daemon that was killed: take it over.
    await rm(path, {force: true})
  }
  throw conflict('daemon_lock_busy', `Could not take ${LOCK_FILE}: other daemons keep starting; try again`)
}
