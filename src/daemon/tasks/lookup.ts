/**
 * How the daemon names tasks on the wire: ids are checked before any file is
 * looked at, and the standard library's refusals get the daemon's codes
 * (`task_unknown` of `mesh task` is `task_not_found` here, like every other
 * missing resource of the daemon). docs/daemon-api.md, Tasks.
 */
import {conflict, invalid, isMeshError, notFound} from '../../lib/errors.js'
import {TASK_ID_LOOSE} from '../../standard/constants.js'
import {findTask, type TaskRecord} from '../../standard/tasks/index.js'

/** spec Task file: task id shape `^[A-Za-z][A-Za-z0-9_-]{1,31}$` (also keeps `..` and `/` out). */
export function assertTaskId(id: string, field = 'id'): string {
  if (!TASK_ID_LOOSE.test(id)) throw invalid('invalid_id', `A task id is a letter then 1 to 31 letters, digits, _ or -; got "${id.slice(0, 40)}"`, {field})
  return id
}

/** The standard library's task errors, as the daemon answers them. */
export function daemonTaskError(error: unknown): unknown {
  if (!isMeshError(error)) return error
  switch (error.code) {
    case 'task_unknown':
      return notFound('task_not_found', error.message)
    case 'usage_status_invalid':
      return invalid('invalid_status', error.message, {field: 'status'})
    case 'usage_title_invalid':
    case 'usage_priority_invalid':
    case 'usage_owner_invalid':
    case 'usage_slug_invalid': {
      // `usage_*` are the CLI's usage errors (exit 2); on the wire they are the route's invalid fields.
      const field = error.code.slice('usage_'.length, -'_invalid'.length)
      return invalid(`invalid_${field}`, error.message, {field: error.field ?? field})
    }
    // The file on disk, not the request, is at fault: a conflict with the project's state.
    case 'task_unreadable':
    case 'file_not_utf8':
      return conflict(error.code, error.message)
    default:
      return error
  }
}

/** The task with this id, or the daemon's 404 `task_not_found` / 409 `task_ambiguous`. */
export async function findTaskForDaemon(root: string, id: string): Promise<TaskRecord> {
  try {
    return await findTask(root, id)
  } catch (error) {
    throw daemonTaskError(error)
  }
}
