import {invalid} from '../../lib/errors.js'
import {DISPATCHABLE_STATUSES} from '../constants.js'
import {STATUS_WRITTEN_AS} from './constants.js'

/**
 * The value written for a status word: a canonical status, or the extra word
 * where no canonical one fits (DECISIONS "Task statuses"). Throws on others.
 */
export function writtenStatus(word: string): string {
  const written = STATUS_WRITTEN_AS[word]
  if (written === undefined) {
    throw invalid('usage_status_invalid', `Unknown status "${word}"; use one of ${Object.keys(STATUS_WRITTEN_AS).join(', ')}.`, {field: 'status'})
  }
  return written
}

/** spec v15: whether the daemon may dispatch a task in this status. */
export const isDispatchable = (status: string) => (DISPATCHABLE_STATUSES as readonly string[]).includes(status)
