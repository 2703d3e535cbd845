/**
 * The task events every writer of a task file announces the same way
 * (issue 20, "one task.updated shape"): the daemon's routes, task resolution,
 * the bookkeeping of commits and the file watcher's report of a change made
 * by anyone else; and the events of turns working on a task (`task.started`,
 * `task.failed`, `task.completed`). `mesh task move --json` prints the same
 * fields as `task.updated`. Nothing here imports anything.
 * docs/daemon-api.md, Tasks, Events from files, Task and deploy events.
 */

export const TASK_UPDATED_EVENT = 'task.updated'
export const TASK_CREATED_EVENT = 'task.created'
export const TASK_ARCHIVED_EVENT = 'task.archived'
/** The file watcher saw a task file go (removed, or moved out of `tasks/`). */
export const TASK_DELETED_EVENT = 'task.deleted'
/** spec Logs: a turn anchored to a task started on it; that same turn failed. */
export const TASK_STARTED_EVENT = 'task.started'
export const TASK_FAILED_EVENT = 'task.failed'
/** Task resolution moved the task a turn finished to done. */
export const TASK_COMPLETED_EVENT = 'task.completed'

/** `by` of a move the portal-token caller made as itself (spec: only the operator promotes a draft). */
export const BY_OPERATOR = 'operator'
/** `by` of a change the file watcher saw on disk: an editor, `git pull`, another tool. */
export const BY_FILE = 'file'
/** `by` of the daemon's own bookkeeping (commit SHAs, the archive pass). */
export const BY_DAEMON = 'daemon'

/** `task.updated`: one shape for every writer. */
export interface TaskUpdatedData {
  id: string
  /** From the repository root: `.mesh/modules/<module>/tasks/<ID>-<slug>.md`. */
  path: string
  module: string
  /** The status before the change; null when it is not known (the watcher's first sight of a file, a file that did not parse). */
  from: string | null
  /** The status now; null when the file does not parse. Equal to `from` when something else changed (commit_shas, a hand edit of the body). */
  to: string | null
  /** spec v15: whether `to` is dispatchable. */
  dispatchable: boolean
  completed_at: string | null
  /** `operator`, a team member id, `daemon` or `file`. */
  by: string
}

/** `task.created`: by `POST /tasks` (its `by`) or the file watcher (`by: "file"`); `status` is absent when the new file does not parse. */
export interface TaskCreatedData {
  id: string
  path: string
  module: string
  status?: string
  by: string
}

/** `task.archived`: `path` is the archived file, `from_path` the active one it was. */
export interface TaskArchivedData {
  id: string
  module: string
  path: string
  from_path: string
  /** When it was completed: `completed_at`, else its `updated` date. */
  completed_at: string
  by: string
}

/** `task.deleted` (file watcher): the id last read from the file. */
export interface TaskDeletedData {
  id: string
  path: string
  module: string
}

/** `task.started` (also a timeline line). */
export interface TaskStartedData {
  author: string
  text: string
  task: string
  initiative?: string
  conv: string
  turn_id: string
  member: string
}

/** `task.failed`: the turn that started on the task failed; `reason` and `detail` are its final's. */
export interface TaskFailedData extends TaskStartedData {
  reason: string
  detail?: string
}

/** `task.completed` (also a timeline line): `member` is the profile that ran the turn, as `resolved_by` records it. */
export interface TaskCompletedData {
  author: string
  text: string
  task: string
  conv: string
  member: string
}

/** The payload with its fields in one order, whoever builds it. */
export function taskUpdatedData(fields: TaskUpdatedData): TaskUpdatedData {
  const {id, path, module, from, to, dispatchable, completed_at, by} = fields
  return {id, path, module, from, to, dispatchable, completed_at, by}
}

/** The module folder of a task path (`.mesh/modules/<module>/…`), or '' when the path is not one. */
export function taskModuleOf(path: string): string {
  return /(?:^|\/)modules\/([^/]+)\//.exec(path)?.[1] ?? ''
}
