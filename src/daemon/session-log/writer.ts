/**
 * Appends lines to `.mesh/log/<local YYYY-MM-DD>.md` (spec: Folder layout,
 * "prose session log (local date)"): a new day's file starts with its
 * heading, created exclusively so two writers never both write one; each line
 * is one append of a whole line, in the order the events came. Files are
 * opened through the no-link helpers (issue 18): a linked `log/` or day file
 * refuses the append, said once in the debug stream, and nothing is written
 * outside `.mesh/`.
 */
import {appendContainedFile, createContainedFileExclusive} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {SESSION_LOG_DIR, SESSION_LOG_TAG} from './constants.js'
import {localDay, localTime} from './lines.js'

export interface SessionLog {
  /** Appends `- HH:MM:SS <prose>` to the file of the local day of `atMs`; never throws. */
  append(prose: string, atMs: number): void
  /** Resolves once every line appended so far is on disk. */
  flush(): Promise<void>
}

export function createSessionLog(context: Pick<DaemonContext, 'meshPath' | 'debug'>): SessionLog {
  let writing: Promise<void> = Promise.resolve()
  const failed = new Set<string>()
  const meshDir = context.meshPath()

  const write = async (day: string, line: string) => {
    const path = `${SESSION_LOG_DIR}/${day}.md`
    try {
      // The heading once, by whoever creates the file: an existing file (or a refused one) is never overwritten.
      await createContainedFileExclusive(meshDir, path, `# Session log ${day}\n\n`)
      await appendContainedFile(meshDir, path, line)
      failed.delete(path)
    } catch (error) {
      if (failed.has(path)) return
      failed.add(path)
      context.debug.log({lvl: 'error', tag: SESSION_LOG_TAG, msg: `could not append to .mesh/${path}: ${(error as Error).message}`})
    }
  }

  return {
    append(prose, atMs) {
      const day = localDay(atMs)
      const line = `- ${localTime(atMs)} ${prose}\n`
      writing = writing.then(() => write(day, line))
    },
    flush: () => writing,
  }
}
