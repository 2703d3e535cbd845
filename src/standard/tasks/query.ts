import {conflict, invalid, notFound} from '../../lib/errors.js'
import {compareIds, compareText} from '../compare.js'
import {splitFrontmatter} from '../frontmatter.js'
import {STATUS_WRITTEN_AS} from './constants.js'
import {isDispatchable} from './status.js'
import {idsOf, readTaskBytes, scanTasks, taskRecordOf, type TaskRecord} from './task-files.js'

/** What `mesh task list` and `show` report for a task. */
export interface TaskSummary {
  id: string
  title: string
  status: string
  priority: string
  /** `order` 0 to 9, or null when absent (or not an integer). */
  order: number | null
  owner: string
  module: string
  initiative: string | null
  depends_on: string[]
  created: string | null
  updated: string | null
  completed_at: string | null
  dispatchable: boolean
  archived: boolean
  path: string
  /** Why the frontmatter could not be read (the other fields are then empty). */
  problem?: string
}

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value))
const optional = (value: unknown) => (typeof value === 'string' ? value : null)

/** The summary of one task record. */
export function summarize(record: TaskRecord): TaskSummary {
  const status = text(record.data.status)
  return {
    id: record.id,
    title: text(record.data.title),
    status,
    priority: text(record.data.priority),
    order: Number.isInteger(record.data.order) ? (record.data.order as number) : null,
    owner: text(record.data.owner),
    module: record.module,
    initiative: optional(record.data.initiative),
    depends_on: Array.isArray(record.data.depends_on) ? record.data.depends_on.filter((d): d is string => typeof d === 'string') : [],
    created: optional(record.data.created),
    updated: optional(record.data.updated),
    completed_at: optional(record.data.completed_at),
    dispatchable: isDispatchable(status),
    archived: record.archived,
    path: record.relativePath,
    ...(record.problem === undefined ? {} : {problem: record.problem}),
  }
}

/** Orders ids like a person does: `P2` before `P10` (the same on every machine). */
export {compareIds}

export interface TaskFilter {
  /** Any of these; alias words match their canonical status (`doing` ≈ `active`). */
  status?: string[]
  module?: string
  owner?: string
  initiative?: string
  /** Include archived tasks (off by default). */
  archived?: boolean
}

const sameStatus = (a: string, b: string) => a === b || (STATUS_WRITTEN_AS[a] ?? a) === (STATUS_WRITTEN_AS[b] ?? b)

/** The tasks matching every given filter, by module then id. */
export async function listTasks(root: string, filter: TaskFilter = {}): Promise<TaskSummary[]> {
  const records = await scanTasks(root, {includeArchived: filter.archived ?? false})
  return records
    .map(summarize)
    .filter((task) => !filter.status?.length || filter.status.some((status) => sameStatus(task.status, status)))
    .filter((task) => filter.module === undefined || task.module === filter.module)
    .filter((task) => filter.owner === undefined || task.owner === filter.owner)
    .filter((task) => filter.initiative === undefined || task.initiative === filter.initiative)
    .sort((a, b) => compareText(a.module, b.module) || compareIds(a.id, b.id))
}

/**
 * The task with this id: an exact match first, then a case-insensitive one;
 * an active file wins over archived ones. Throws `task_unknown` / `task_ambiguous`.
 */
export async function findTask(root: string, id: string, records?: TaskRecord[]): Promise<TaskRecord> {
  const all = records ?? (await scanTasks(root))
  let matches = all.filter((record) => idsOf(record).includes(id))
  if (matches.length === 0) matches = all.filter((record) => idsOf(record).some((candidate) => candidate.toLowerCase() === id.toLowerCase()))
  if (matches.length === 0) throw notFound('task_unknown', `No task "${id}" in this project.`)
  const active = matches.filter((record) => !record.archived)
  const pool = active.length > 0 ? active : matches
  if (pool.length > 1) {
    throw conflict('task_ambiguous', `Task id "${id}" is used by ${pool.length} files: ${pool.map((r) => r.relativePath).join(', ')}.`)
  }
  return pool[0]
}

/**
 * A task about to be rewritten, as its file is now: `find` (the daemon's index,
 * or a scan) says where it is, then its bytes are read again, so a hand edit
 * since always wins. Throws `task_unreadable` for a file that does not parse.
 */
export async function readTaskNow(root: string, id: string, find: (id: string) => Promise<TaskRecord> = (wanted) => findTask(root, wanted)): Promise<{record: TaskRecord; bytes: Buffer}> {
  const unreadable = (task: TaskRecord) => invalid('task_unreadable', `${task.relativePath}: ${task.problem}`)
  const found = await find(id)
  if (found.problem) throw unreadable(found)
  const bytes = await readTaskBytes(root, found)
  const record = taskRecordOf(root, found, () => bytes.toString('utf8'))
  if (record.problem) throw unreadable(record)
  return {record, bytes}
}

/** A task with its body, for `mesh task show`. */
export interface TaskDetail extends TaskSummary {
  frontmatter: Record<string, unknown>
  body: string
}

export async function showTask(root: string, id: string): Promise<TaskDetail> {
  const record = await findTask(root, id)
  const body = splitFrontmatter((await readTaskBytes(root, record)).toString('utf8')).body
  return {...summarize(record), frontmatter: record.data, body}
}
