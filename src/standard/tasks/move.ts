import {writeFileAtomic} from '../../lib/atomic-write.js'
import {conflict, invalid} from '../../lib/errors.js'
import {editFrontmatter} from '../frontmatter.js'
import {decodeUtf8ForRewrite} from '../project/utf8.js'
import {utcDate, utcDateTime} from '../project/project-root.js'
import {readTaskNow} from './query.js'
import {isDispatchable, writtenStatus} from './status.js'
import type {TaskRecord} from './task-files.js'

export interface MovedTask {
  id: string
  path: string
  /** The module folder the task lives in. */
  module: string
  from: string
  to: string
  /** spec v15: whether the daemon may now dispatch it. */
  dispatchable: boolean
  /** False when the task already had that status (nothing was written). */
  changed: boolean
  completed_at: string | null
}

/** How a caller other than the CLI moves a task (the daemon: its project writer, its rules). */
export interface MoveTaskOptions {
  /** Writes the new file text (default: an atomic write); the daemon passes its snapshotting writer. */
  write?: (absolutePath: string, text: string) => Promise<void>
  /** Runs once `from` and `to` are known, before anything is written; throws to refuse the move. */
  check?: (move: {id: string; from: string; to: string}) => void
  /** Finds the task's file (default: findTask over a scan of every file); the daemon passes its task index. */
  find?: (id: string) => Promise<TaskRecord>
}

/** The resolver's stamps (spec v26): true only of a task in `done`, so a move out of it drops them. */
const DONE_ONLY_FIELDS = ['completed_at', 'resolved_by', 'resolved_by_conv'] as const

/**
 * Moves a task to a status: accepts the six canonical words and the six extra
 * ones (written canonically where one fits — DECISIONS), sets `updated`, sets
 * `completed_at` on `done` and drops it — with `resolved_by` and
 * `resolved_by_conv` (issue 20) — when a done task is reopened: they describe
 * a resolution that no longer holds. The body (its `## Resolution` among it)
 * and `commit_shas` stay: they are the task's history. Only the frontmatter is
 * rewritten; the body stays byte-identical.
 */
export async function moveTask(root: string, id: string, statusWord: string, now: Date = new Date(), options: MoveTaskOptions = {}): Promise<MovedTask> {
  const to = writtenStatus(statusWord)
  // The file as it is now decides, not what a scan or an index read of it before: a hand edit since always wins.
  const {record, bytes} = await readTaskNow(root, id, options.find)
  if (record.archived) {
    throw conflict('task_archived', `${record.id} is archived (${record.relativePath}); archived tasks are history and are not moved.`)
  }
  const from = typeof record.data.status === 'string' ? record.data.status : ''
  const base = {id: record.id, path: record.relativePath, module: record.module, from, to, dispatchable: isDispatchable(to)}
  options.check?.({id: record.id, from, to})
  if (from === to) {
    const completed = typeof record.data.completed_at === 'string' ? record.data.completed_at : null
    return {...base, changed: false, completed_at: completed}
  }
  const completedAt = to === 'done' ? utcDateTime(now) : null
  const text = decodeUtf8ForRewrite(bytes, record.relativePath)
  let next: string
  try {
    next = editFrontmatter(text, (document) => {
      document.set('status', to)
      document.set('updated', utcDate(now))
      if (completedAt) document.set('completed_at', completedAt)
      else for (const field of DONE_ONLY_FIELDS) document.delete(field)
    })
  } catch (error) {
    // A file without a --- block reads as an empty frontmatter but cannot be rewritten.
    throw invalid('task_unreadable', `${record.relativePath}: ${(error as Error).message}`)
  }
  await (options.write ?? writeFileAtomic)(record.path, next)
  return {...base, changed: true, completed_at: completedAt}
}
