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
import {isProcessAlive, readRuntime, type DaemonRuntime} from '../client/daemon/locate.js'
import {DAEMON_FILE, RUNTIME_DIR} from './constants.js'

export type {DaemonRuntime}
export {isProcessAlive, readRuntime}

const LOCK_FILE = `${RUNTIME_DIR}/daemon.lock`

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
