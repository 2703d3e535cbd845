/**
 * Project-wide helpers every area uses (tasks, initiatives, the daemon, the
 * commands): where the project is, paths inside its `.mesh/`, and the
 * standard's UTC dates.
 */
import {stat} from 'node:fs/promises'
import {join, resolve} from 'node:path'
import {findUpFolder} from '../../lib/find-up.js'
import {invalid, notFound} from '../../lib/errors.js'
import {MESH_DIR} from '../constants.js'

/** Whether `path` is an existing folder. */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/**
 * The repository root that holds `.mesh/`: `start` itself or its nearest
 * ancestor, like git finds `.git`. Throws `not_a_mesh_project` otherwise, and
 * `usage_dir_missing` when `start` (a `--dir` the user typed) is no folder.
 */
export async function findProjectRoot(start: string = process.cwd()): Promise<string> {
  if (!(await isDirectory(start))) throw invalid('usage_dir_missing', `No such directory: ${start}`, {field: 'dir'})
  const found = await findUpFolder(start, MESH_DIR)
  if (found !== null) return found
  throw notFound('not_a_mesh_project', `No ${MESH_DIR}/ folder in ${resolve(start)} or above it; run \`mesh init\` first.`)
}

/** `<root>/.mesh/<parts…>`. */
export const meshPath = (root: string, ...parts: string[]) => join(root, MESH_DIR, ...parts)

/** Today's date in UTC as `YYYY-MM-DD` (the standard's dates are UTC days). */
export const utcDate = (now: Date) => now.toISOString().slice(0, 10)

/** An ISO-8601 UTC date-time without milliseconds, e.g. `2026-01-05T10:00:00Z`. */
export const utcDateTime = (now: Date) => now.toISOString().replace(/\.\d{3}Z$/, 'Z')
