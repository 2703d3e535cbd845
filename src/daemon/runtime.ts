/**
 * `.mesh/.runtime/daemon.json` — how every other command finds the daemon
 * (DECISIONS: Daemon runtime) — and the lock that lets only one daemon serve
 * a project. The lock is a file created exclusively that holds the owner's
 * pid; a lock or runtime file left by a killed daemon names a dead pid and is
 * taken over (docs/daemon.md, Start and find).
 */
import {lstatSync, readFileSync, rmSync} from 'node:fs'
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

export interface DaemonLock {
  /** Removes the lock while this process holds it, and stops guarding it. */
  release(): Promise<void>
  /** The stale locks removed to take this one, for the boot log: whose pid, and why it could go. */
  takenOver: Array<{pid: number; why: string}>
}

/**
 * Takes the project's daemon lock for this process, or throws `daemon_running`
 * naming the live owner. A lock of a dead pid, or copied with the folder from
 * another project, is removed and taken (said in `takenOver`). Until released,
 * the lock is guarded against a signal that would end the process before its
 * owner's stop runs (guardUntilReleased).
 */
export async function acquireDaemonLock(root: string): Promise<DaemonLock> {
  // Guarded before the lock exists: a signal between its creation and the guard would leave it behind.
  const unguard = guardUntilReleased(root)
  try {
    const taken = await takeLock(root)
    return {
      takenOver: taken.takenOver,
      async release() {
        unguard()
        if ((await readLockOwner(root)) === process.pid) await rm(meshPath(root, LOCK_FILE), {force: true})
      },
    }
  } catch (error) {
    unguard()
    throw error
  }
}

async function takeLock(root: string): Promise<Pick<DaemonLock, 'takenOver'>> {
  const takenOver: DaemonLock['takenOver'] = []
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createContainedFileExclusive(meshPath(root), LOCK_FILE, `${process.pid} ${await projectRealPath(root)}`)) return {takenOver}
    const lock = await readLock(root)
    const owner = lock.pid
    const runtime = await readRuntime(root)
    // A lock copied with the folder names the original's live daemon, and the original's root.
    const copied = lock.root !== null ? lock.root !== (await projectRealPath(root)) : runtime !== null && runtime.pid === owner && !servesRoot(runtime, await projectRealPath(root))
    const alive = isProcessAlive(owner)
    if (alive && !copied) {
      const where = runtime && runtime.pid === owner ? ` on ${daemonUrl(runtime)}` : ''
      throw conflict('daemon_running', `Another mesh daemon (pid ${owner}) already serves this project${where}; stop it with \`mesh daemon stop\``)
    }
    // Left by a daemon that was killed, or copied from another project: take it over.
    await rm(meshPath(root, LOCK_FILE), {force: true})
    takenOver.push({pid: owner, why: alive ? `it was copied with the folder from ${lock.root ?? 'another project'}` : `process ${owner} is not running`})
  }
  throw conflict('daemon_lock_busy', `Could not take ${LOCK_FILE}: other daemons keep starting; try again`)
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = {SIGINT: 130, SIGTERM: 143}

/**
 * From the lock until its release, a SIGINT or SIGTERM that nothing else
 * listens to (Ctrl-C before `mesh serve` has its own stop in place, right
 * after start) exits the process instead of killing it, and on exit the lock
 * and daemon.json are removed while they still name this process: no lock is
 * left behind for the next start to take over. Synchronous: an `exit`
 * listener cannot wait. Answers the function that stops the guard.
 */
function guardUntilReleased(root: string): () => void {
  const removeOurs = () => {
    for (const file of [LOCK_FILE, DAEMON_FILE]) {
      const path = meshPath(root, file)
      try {
        // Never through a link (issue 18); a file that names another process is a successor's.
        if (!lstatSync(path).isFile()) continue
        const text = readFileSync(path, 'utf8')
        const pid = file === LOCK_FILE ? Number(text.trim().split(' ')[0]) : parseDaemonRuntime(text)?.pid
        if (pid === process.pid) rmSync(path, {force: true})
      } catch {
        // Gone already, or unreadable: nothing of ours to remove.
      }
    }
  }
  const onSignal = (signal: NodeJS.Signals) => {
    // Someone else stops the process on it (mesh serve once it listens): their stop releases the lock.
    if (process.listenerCount(signal) > 1) return
    process.exit(SIGNAL_EXIT[signal])
  }
  const signals = Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]
  for (const signal of signals) process.on(signal, onSignal)
  process.on('exit', removeOurs)
  return () => {
    for (const signal of signals) process.off(signal, onSignal)
    process.off('exit', removeOurs)
  }
}
