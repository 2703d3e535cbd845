/**
 * At start, removes the temp files an atomic write leaves when its process is
 * killed between writing and renaming (`.<name>.<pid>.<12 hex>.tmp`, and the
 * exclusive create's `.new`): the target itself is whole — old or new bytes —
 * but the temp file would lie there for good. Only files of dead processes go.
 */
import {readdir, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {isProcessAlive} from '../lib/process-alive.js'

const TEMP_FILE = /^\..+\.(\d+)\.[0-9a-f]{12}\.(tmp|new)$/

export async function sweepTempFiles(dir: string): Promise<string[]> {
  const removed: string[] = []
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, {withFileTypes: true}).catch(() => [])
    for (const entry of entries) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) {
        const match = TEMP_FILE.exec(entry.name)
        if (match && !isProcessAlive(Number(match[1]))) {
          await rm(path, {force: true})
          removed.push(path)
        }
      }
    }
  }
  await walk(dir)
  return removed
}
