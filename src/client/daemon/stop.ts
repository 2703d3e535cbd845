/**
 * `mesh daemon stop`: SIGTERM to the pid of daemon.json, then wait until the
 * daemon has removed the file (its clean stop) or its process is gone; a file
 * left by a killed daemon is removed here.
 */
import {rm} from 'node:fs/promises'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {MeshError} from '../../lib/errors.js'
import {isProcessAlive} from '../../lib/process-alive.js'
import {DAEMON_FILE, MESH_DIR} from '../../protocol/daemon.js'
import {locateDaemon} from './locate.js'

const STOP_TIMEOUT_MS = 10_000
const POLL_MS = 50

export interface Stopped {
  was: 'running' | 'stale' | 'stopped'
  pid?: number
}

export async function stopDaemon(root: string, timeoutMs = STOP_TIMEOUT_MS): Promise<Stopped> {
  const found = await locateDaemon(root)
  if (found.state === 'stopped') return {was: 'stopped'}
  const {pid} = found.runtime
  if (found.state === 'stale') {
    await rm(join(root, MESH_DIR, DAEMON_FILE), {force: true})
    return {was: 'stale', pid}
  }
  try {
    process.kill(pid, 'SIGTERM')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') throw new MeshError('forbidden', 'daemon_not_yours', `The daemon (pid ${pid}) belongs to another user; stop it as that user`)
  }
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const now = await locateDaemon(root)
    if (now.state === 'stopped' || now.runtime.pid !== pid || !isProcessAlive(pid)) {
      if (now.state === 'stale') await rm(join(root, MESH_DIR, DAEMON_FILE), {force: true})
      return {was: 'running', pid}
    }
    await sleep(POLL_MS)
  }
  throw new MeshError('unavailable', 'daemon_stop_timeout', `The daemon (pid ${pid}) did not stop within ${timeoutMs / 1000} s; \`kill -9 ${pid}\` ends it (the next \`mesh serve\` takes over its files)`)
}
