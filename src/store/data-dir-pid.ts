/**
 * The pid file of a data dir in use: `<data>/mesh.pid`, written by every
 * server that opens the data dir's SQLite database (openStorage) and removed
 * when it closes it, so an offline tool (`mesh registry restore`) can refuse
 * to replace a database under a running server. A file left by a process
 * that died names a pid that no longer lives, and counts as free.
 */
import {readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {isProcessAlive} from '../lib/process-alive.js'

export const DATA_DIR_PID_FILE = 'mesh.pid'

/** The pid of the live process serving this data dir, or null. */
export function dataDirHolder(dataDir: string): number | null {
  let text: string
  try {
    text = readFileSync(join(dataDir, DATA_DIR_PID_FILE), 'utf8')
  } catch {
    return null
  }
  const pid = Number(text.trim())
  return isProcessAlive(pid) ? pid : null
}

/** Marks the data dir as served by this process; the returned release removes the mark if it is still ours. */
export async function holdDataDir(dataDir: string): Promise<() => void> {
  const path = join(dataDir, DATA_DIR_PID_FILE)
  await writeFileAtomic(path, `${process.pid}\n`, {mode: 0o600})
  return () => {
    // Two servers on one data dir (allowed: SQLite serializes them): the later one's mark stays.
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, {force: true})
    } catch {
      // Already gone.
    }
  }
}
