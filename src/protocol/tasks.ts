/**
 * The task events every writer of a task file announces the same way
 * (issue 20, "one task.updated shape"): the daemon's routes, task resolution,
 * the bookkeeping of commits and the file watcher's report of a change made
 * by anyone else. `mesh task move --json` prints the same fields. Nothing
 * here imports anything. docs/daemon-api.md, Tasks.
 */

export const TASK_UPDATED_EVENT = 'task.updated'
export const TASK_CREATED_EVENT = 'task.created'
export const TASK_ARCHIVED_EVENT = 'task.archived'

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

/** The payload with its fields in one order, whoever builds it. */
export function taskUpdatedData(fields: TaskUpdatedData): TaskUpdatedData {
  const {id, path, module, from, to, dispatchable, completed_at, by} = fields
  return {id, path, module, from, to, dispatchable, completed_at, by}
}

/** The module folder of a task path (`.mesh/modules/<module>/…`), or '' when the path is not one. */
export function taskModuleOf(path: string): string {
  return /(?:^|\/)modules\/([^/]+)\//.exec(path)?.[1] ?? ''
}
