import {lstatSync, realpathSync} from 'node:fs'
import {setImmediate as yieldToLoop} from 'node:timers/promises'
import {dirname, join, relative, sep} from 'node:path'
import {listContainedFolder, readContainedFile, readContainedFileSync} from '../../lib/contained-files.js'
import {notFound} from '../../lib/errors.js'
import {describeReadError, parseFrontmatter, splitFrontmatter} from '../frontmatter.js'
import {parseSimpleYaml} from '../project/simple-yaml.js'
import {ARCHIVE_DIR, ARCHIVE_MONTH, MODULES_DIR, TASKS_DIR} from './constants.js'
import {meshPath} from '../project/project-root.js'

/** Task files read between two yields to the event loop. */
const READ_BATCH = 512

/** One task file found under `.mesh/modules/`. */
export interface TaskRecord {
  /** The frontmatter `id`, or the part of the file name before the first hyphen. */
  id: string
  /** The module folder the file lives in. */
  module: string
  /** Absolute path. */
  path: string
  /** Path from the repository root, with forward slashes. */
  relativePath: string
  /** Under `modules/<id>/log/<YYYY-MM>/` rather than `tasks/`. */
  archived: boolean
  /** Parsed frontmatter; `{}` when it could not be read. */
  data: Record<string, unknown>
  /** Why the frontmatter could not be read, if it could not. */
  problem?: string
}

/**
 * The names in the real folder `.mesh/<dir>`: a folder that is a link (or
 * lies below one) is never listed (issue 18). A file that is a link is
 * listed, and read as a task with a problem, never through the link.
 */
async function listNames(meshDir: string, dir: string): Promise<string[]> {
  try {
    return (await listContainedFolder(meshDir, dir)).filter((entry) => !entry.name.startsWith('.')).map((entry) => entry.name).sort()
  } catch {
    return []
  }
}

async function listDirs(meshDir: string, dir: string): Promise<string[]> {
  try {
    return (await listContainedFolder(meshDir, dir)).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name).sort()
  } catch {
    return []
  }
}

/** Parses a task file's frontmatter: the fast flat-YAML reader first, the full parser for anything else. */
function parseTaskText(text: string): Record<string, unknown> {
  const split = splitFrontmatter(text)
  if (!split.hasFrontmatter) return {}
  if (split.unterminated) throw new Error('the frontmatter opened with --- on line 1 is never closed by a --- line')
  const data = parseSimpleYaml(split.yamlText) ?? parseFrontmatter(text).data
  return data && typeof data === 'object' && !Array.isArray(data) ? data : {}
}

/** The record of a task file's text (read by the caller); a frontmatter that cannot be read is the record's `problem`. */
export function taskRecordOf(root: string, place: {module: string; path: string; archived: boolean}, read: () => string): TaskRecord {
  const {module, path, archived} = place
  const stem = path.split(sep).pop()!.replace(/\.md$/, '')
  const fallbackId = stem.split('-')[0]
  const relativePath = relative(root, path).split(sep).join('/')
  try {
    const record = parseTaskText(read())
    const id = typeof record.id === 'string' ? record.id : fallbackId
    return {id, module, path, relativePath, archived, data: record}
  } catch (error) {
    return {id: fallbackId, module, path, relativePath, archived, data: {}, problem: describeReadError(error, 2)}
  }
}

/** `path` is read as a regular file inside the real `.mesh/` (`realMesh`), never through a link. */
function readTask(root: string, realMesh: string, module: string, path: string, archived: boolean): TaskRecord {
  return taskRecordOf(root, {module, path, archived}, () => {
    const meshDir = meshPath(root)
    const bytes = readContainedFileSync(meshDir, relative(meshDir, path), {realRoot: realMesh})
    if (bytes === null) throw new Error('the file is gone')
    return bytes.toString('utf8')
  })
}

/**
 * Where a `.mesh/`-relative, `/`-separated path stands among the task files
 * scanTasks reads (`modules/<m>/tasks/<name>.md`, archived
 * `modules/<m>/log/<YYYY-MM>/<name>.md`, no name starting with a dot), or
 * null when it is not one.
 */
export function taskFilePlace(meshRelativePath: string): {module: string; archived: boolean} | null {
  const parts = meshRelativePath.split('/')
  const name = parts[parts.length - 1]
  if (parts[0] !== MODULES_DIR || !name.endsWith('.md') || name.startsWith('.') || parts.slice(1, -1).some((part) => part.startsWith('.'))) return null
  if (parts.length === 4 && parts[2] === TASKS_DIR) return {module: parts[1], archived: false}
  if (parts.length === 5 && parts[2] === ARCHIVE_DIR && ARCHIVE_MONTH.test(parts[3])) return {module: parts[1], archived: true}
  return null
}

/**
 * The task file at a `.mesh/`-relative path as it is now (scanTasks' record
 * of it), or null when the path is no task file or there is none there. Read
 * as a regular file in real folders: a file under a linked folder is none
 * (scanTasks never lists it), a file that is a link a record with a problem.
 */
export function readTaskFile(root: string, meshRelativePath: string): TaskRecord | null {
  const place = taskFilePlace(meshRelativePath)
  if (!place) return null
  const parts = meshRelativePath.split('/')
  const meshDir = meshPath(root)
  const path = join(meshDir, ...parts)
  let realMesh: string
  try {
    realMesh = realpathSync.native(meshDir)
    // The folders on the way must be real folders, as listContainedFolder checks them for scanTasks.
    if (realpathSync.native(dirname(path)) !== join(realMesh, ...parts.slice(0, -1))) return null
    if (lstatSync(path, {throwIfNoEntry: false}) === undefined) return null
  } catch {
    return null
  }
  return readTask(root, realMesh, place.module, path, place.archived)
}

/**
 * Every task file of the project, active (`modules/<m>/tasks/*.md`) and
 * archived (`modules/<m>/log/<YYYY-MM>/*.md`), sorted by module then path.
 * Files starting with a dot (`.gitkeep`, reservations) are not tasks.
 */
export async function scanTasks(root: string, options: {includeArchived?: boolean} = {}): Promise<TaskRecord[]> {
  const includeArchived = options.includeArchived ?? true
  const modulesDir = meshPath(root, MODULES_DIR)
  const found: Array<{module: string; path: string; archived: boolean}> = []
  const meshDir = meshPath(root)
  for (const module of await listDirs(meshDir, MODULES_DIR)) {
    const tasksDir = join(modulesDir, module, TASKS_DIR)
    for (const name of await listNames(meshDir, `${MODULES_DIR}/${module}/${TASKS_DIR}`)) {
      if (name.endsWith('.md')) found.push({module, path: join(tasksDir, name), archived: false})
    }
    if (!includeArchived) continue
    const archiveDir = join(modulesDir, module, ARCHIVE_DIR)
    for (const month of (await listDirs(meshDir, `${MODULES_DIR}/${module}/${ARCHIVE_DIR}`)).filter((name) => ARCHIVE_MONTH.test(name))) {
      for (const name of await listNames(meshDir, `${MODULES_DIR}/${module}/${ARCHIVE_DIR}/${month}`)) {
        if (name.endsWith('.md')) found.push({module, path: join(archiveDir, month, name), archived: true})
      }
    }
  }
  // Synchronous reads in batches, with a yield between them: on thousands of small files
  // readFileSync is several times faster than fs.promises (as in the project loader).
  const records: TaskRecord[] = []
  if (found.length === 0) return records
  const realMesh = realpathSync.native(meshDir)
  for (let start = 0; start < found.length; start += READ_BATCH) {
    if (start > 0) await yieldToLoop()
    for (const file of found.slice(start, start + READ_BATCH)) records.push(readTask(root, realMesh, file.module, file.path, file.archived))
  }
  return records
}

/** The ids a file stands for: its name's id and its frontmatter id (they should agree). */
/**
 * A task file's bytes as they are now, read as a regular file inside `.mesh/`
 * (never through a link, issue 18): what show and move read. A file that
 * became a link since the scan is refused (409 `path_refused`); one that is
 * gone reads as 404 `task_unknown`.
 */
export async function readTaskBytes(root: string, record: TaskRecord): Promise<Buffer> {
  const meshDir = meshPath(root)
  const bytes = await readContainedFile(meshDir, relative(meshDir, record.path))
  if (bytes === null) throw notFound('task_unknown', `${record.relativePath} is gone`)
  return bytes
}

export function idsOf(record: TaskRecord): string[] {
  const fromName = record.path.split(sep).pop()!.split('-')[0]
  return record.id === fromName ? [record.id] : [record.id, fromName]
}
