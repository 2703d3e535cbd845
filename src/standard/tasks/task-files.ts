import {readdir, readFile} from 'node:fs/promises'
import {join, relative, sep} from 'node:path'
import {parseFrontmatter} from '../frontmatter.js'
import {ARCHIVE_DIR, ARCHIVE_MONTH, MODULES_DIR, TASKS_DIR} from './constants.js'
import {meshPath} from './project-root.js'

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

async function listNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, {withFileTypes: true})).filter((entry) => !entry.name.startsWith('.')).map((entry) => entry.name).sort()
  } catch {
    return []
  }
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, {withFileTypes: true})).filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name).sort()
  } catch {
    return []
  }
}

async function readTask(root: string, module: string, path: string, archived: boolean): Promise<TaskRecord> {
  const stem = path.split(sep).pop()!.replace(/\.md$/, '')
  const fallbackId = stem.split('-')[0]
  const relativePath = relative(root, path).split(sep).join('/')
  try {
    const {data} = parseFrontmatter(await readFile(path, 'utf8'))
    const record = data && typeof data === 'object' && !Array.isArray(data) ? data : {}
    const id = typeof record.id === 'string' ? record.id : fallbackId
    return {id, module, path, relativePath, archived, data: record}
  } catch (error) {
    return {id: fallbackId, module, path, relativePath, archived, data: {}, problem: (error as Error).message.split('\n')[0]}
  }
}

/**
 * Every task file of the project, active (`modules/<m>/tasks/*.md`) and
 * archived (`modules/<m>/log/<YYYY-MM>/*.md`), sorted by module then path.
 * Files starting with a dot (`.gitkeep`, reservations) are not tasks.
 */
export async function scanTasks(root: string, options: {includeArchived?: boolean} = {}): Promise<TaskRecord[]> {
  const includeArchived = options.includeArchived ?? true
  const modulesDir = meshPath(root, MODULES_DIR)
  const records: TaskRecord[] = []
  for (const module of await listDirs(modulesDir)) {
    const tasksDir = join(modulesDir, module, TASKS_DIR)
    for (const name of await listNames(tasksDir)) {
      if (name.endsWith('.md')) records.push(await readTask(root, module, join(tasksDir, name), false))
    }
    if (!includeArchived) continue
    const archiveDir = join(modulesDir, module, ARCHIVE_DIR)
    for (const month of (await listDirs(archiveDir)).filter((name) => ARCHIVE_MONTH.test(name))) {
      for (const name of await listNames(join(archiveDir, month))) {
        if (name.endsWith('.md')) records.push(await readTask(root, module, join(archiveDir, month, name), true))
      }
    }
  }
  return records
}

/** The ids a file stands for: its name's id and its frontmatter id (they should agree). */
export function idsOf(record: TaskRecord): string[] {
  const fromName = record.path.split(sep).pop()!.split('-')[0]
  return record.id === fromName ? [record.id] : [record.id, fromName]
}
