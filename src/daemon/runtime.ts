/**
 * `.mesh/.runtime/daemon.json` — how every other command finds the daemon
 * (DECISIONS: Daemon runtime) — and the lock that lets only one daemon serve
 * a project. The lock is a file created exclusively that holds the owner's
 * pid; a lock or runtime file left by a killed daemon names a dead pid and is
 * taken over (docs/daemon.md, Start and find).
 */
import {readFile, rm} from 'node:fs/promises'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {conflict} from '../lib/errors.js'
import {createFileExclusive} from '../lib/exclusive-create.js'
import {meshPath} from '../standard/tasks/project-root.js'
import {DAEMON_FILE, RUNTIME_DIR} from './constants.js'

/** The content of daemon.json. */
export interface DaemonRuntime {
  port: number
  pid: number
  started_at: string
  version: string
}

const LOCK_FILE = `${RUNTIME_DIR}/daemon.lock`

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
  return !!v && Number.isInteger(v.port) && Number.isInteger(v.pid) && typeof v.started_at === 'string' && typeof v.version === 'string'
}

/** daemon.json when it exists and is well-formed, else null (a torn or hand-edited file counts as absent). */
export async function readRuntime(root: string): Promise<DaemonRuntime | null> {
  try {
    const value: unknown = JSON.parse(await readFile(meshPath(root, DAEMON_FILE), 'utf8'))
    return isRuntime(value) ? value : null
  } catch {
    return null
  }
}

/** daemon.json of a daemon whose process is alive; a stale file (dead pid) reads as null. */
export async function readLiveRuntime(root: string): Promise<DaemonRuntime | null> {
  const runtime = await readRuntime(root)
  return runtime && isProcessAlive(runtime.pid) ? runtime : null
}

export const writeRuntime = (root: string, runtime: DaemonRuntime) =>
  writeFileAtomic(meshPath(root, DAEMON_FILE), JSON.stringify(runtime, null, 2) + '\n')

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
    if (await createFileExclusive(path, String(process.pid))) {
      return async () => {
        const owner = Number(await readFile(path, 'utf8').catch(() => ''))
        if (owner === process.pid) await rm(path, {force: true})
      }
    }
    const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim())
    if (isProcessAlive(owner)) {
      const runtime = await readRuntime(root)
      const where = runtime && runtime.pid === owner ? ` on http://127.0.0.1:${runtime.port}` : ''
      throw conflict('daemon_running', `Another mesh daemon (pid ${owner}) already serves this project${where}; stop it with \`mesh daemon stop\``)
    }
    // Left by a daemon that was killed: take it over.
    await rm(path, {force: true})
  }
  throw conflict('daemon_lock_busy', `Could not take ${LOCK_FILE}: other daemons keep starting; try again`)
}
