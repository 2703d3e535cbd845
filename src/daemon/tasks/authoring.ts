/**
 * The daemon's other task writes — create, archive, the commit bookkeeping —
 * each through task-writes.ts (writer, task lock) and announced on /events by
 * the daemon itself, since the watcher skips the echo of its own writes
 * (docs/daemon-api.md, Tasks).
 */
import {isMeshError} from '../../lib/errors.js'
import {BY_DAEMON, TASK_ARCHIVED_EVENT, TASK_CREATED_EVENT, TASK_UPDATED_EVENT, taskUpdatedData, type TaskArchivedData} from '../../protocol/tasks.js'
import {isDispatchable, type ArchiveReport, type CreatedTask, type CreateTaskInput} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import {ARCHIVE_TAG, BOOKKEEPING_TAG} from './constants.js'
import {daemonTaskError} from './lookup.js'
import {archiveTasksAs, createTaskAs, recordShaAs} from './task-writes.js'
import {daemonTarget, taskMutex} from './transition.js'

/** `POST /tasks`: creates the task and publishes `task.created` `{id, path, module, status, by}`. */
export async function createTaskForCaller(context: DaemonContext, input: Omit<CreateTaskInput, 'write' | 'now' | 'records'> & {by: string}): Promise<CreatedTask> {
  let created: CreatedTask
  try {
    created = await createTaskAs(daemonTarget(context), input)
  } catch (error) {
    throw daemonTaskError(error)
  }
  context.events.publish(TASK_CREATED_EVENT, {id: created.id, path: created.path, module: created.module, status: created.frontmatter.status, by: input.by})
  return created
}

/**
 * Archives done tasks completed at least `olderThanMs` ago; each archived
 * task is one `task.archived` `{id, module, path, from_path, completed_at, by}`
 * (`path` the archived file). Runs on the transition mutex, so it never
 * interleaves with a move of this daemon.
 */
export async function archiveTasks(context: DaemonContext, olderThanMs: number, by: string): Promise<ArchiveReport> {
  const report = await taskMutex(context).run(async () => {
    try {
      return await archiveTasksAs(daemonTarget(context), olderThanMs)
    } catch (error) {
      throw daemonTaskError(error)
    }
  })
  for (const task of report.archived) {
    context.events.publish(TASK_ARCHIVED_EVENT, {id: task.id, module: task.module, path: task.to, from_path: task.from, completed_at: task.completed_at, by} satisfies TaskArchivedData)
  }
  if (report.archived.length > 0 || report.skipped.length > 0) {
    const skipped = report.skipped.map((task) => `${task.id} (${task.reason})`).join(', ')
    context.debug.log({
      lvl: report.skipped.length > 0 ? 'warn' : 'info',
      tag: ARCHIVE_TAG,
      msg: `archived ${report.archived.length} done task(s)${report.archived.length ? `: ${report.archived.map((task) => task.id).join(', ')}` : ''}${skipped ? `; left ${skipped}` : ''}`,
      data: {by, archived: report.archived.map((task) => task.to), skipped: report.skipped},
    })
  }
  return report
}

/**
 * Appends `sha` to the task's `commit_shas` and publishes `task.updated`
 * (status unchanged, `by: "daemon"`). Never throws: a task that is gone or
 * unreadable is a `warn` line under `tasks.commit-shas`.
 */
export async function recordCommit(context: DaemonContext, task: string, sha: string): Promise<void> {
  try {
    const recorded = await taskMutex(context).run(() => recordShaAs(daemonTarget(context), task, sha))
    if (!recorded.changed) return
    const {id, path, module, status, completed_at} = recorded
    context.events.publish(TASK_UPDATED_EVENT, taskUpdatedData({id, path, module, from: status, to: status, dispatchable: isDispatchable(status), completed_at, by: BY_DAEMON}))
    context.debug.log({lvl: 'debug', tag: BOOKKEEPING_TAG, msg: `${id}: recorded commit ${sha.slice(0, 12)} in commit_shas`, data: {task: id, sha}})
  } catch (thrown) {
    const error = daemonTaskError(thrown)
    const why = isMeshError(error) ? `${error.code}: ${error.message}` : String(error)
    context.debug.log({lvl: 'warn', tag: BOOKKEEPING_TAG, msg: `commit ${sha.slice(0, 12)} not recorded in ${task}: ${why}`, data: {task, sha}})
  }
}
