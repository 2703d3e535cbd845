/**
 * What may be dispatched now (spec v15, Dispatchability): a task whose status
 * is dispatchable (`next`, `active`, `in_progress`, `doing`, `planned`) and
 * whose dependencies are all `done`, in priority order. Drafts are never
 * dispatchable (only the operator promotes one: spec States and transitions)
 * but are counted, so a report can say how many wait on the operator.
 * Archived tasks are history and never dispatched. The daemon's
 * `.mesh/state.json` lists these; an architect pass works through them.
 */
import {compareIds, compareText} from '../compare.js'
import {TASK_PRIORITIES} from '../constants.js'
import type {TaskSummary} from './query.js'
import {isDispatchable} from './status.js'

/** `critical` first, then `high`, `medium`, `low`; an unknown priority last. */
const PRIORITY_RANK = new Map<string, number>([...TASK_PRIORITIES].reverse().map((priority, index) => [priority, index]))
const rankOf = (priority: string) => PRIORITY_RANK.get(priority) ?? PRIORITY_RANK.size

/** Priority, then module, then id (numbers inside ids compared as numbers): the same order on every machine. */
export const comparePriority = (a: TaskSummary, b: TaskSummary) => rankOf(a.priority) - rankOf(b.priority) || compareText(a.module, b.module) || compareIds(a.id, b.id)

export interface DispatchBoard {
  /** Dispatchable now, in priority order. */
  dispatchable: TaskSummary[]
  /** Dispatchable by status but waiting on a dependency not yet done, with those dependencies. */
  waiting: Array<{task: TaskSummary; waiting_on: string[]}>
  /** Tasks in `draft`: never dispatched, counted. */
  drafts: TaskSummary[]
}

/**
 * Sorts the active tasks of `tasks` (archived ones may be included: they
 * count as dependencies, never as work) into what may be dispatched now, what
 * waits on a dependency, and the drafts. A dependency no task file has is
 * not done: the task waits on it.
 */
export function dispatchBoard(tasks: readonly TaskSummary[]): DispatchBoard {
  const statusOf = new Map(tasks.map((task) => [task.id, task.status]))
  const active = tasks.filter((task) => !task.archived && task.problem === undefined)
  const board: DispatchBoard = {dispatchable: [], waiting: [], drafts: []}
  for (const task of [...active].sort(comparePriority)) {
    if (task.status === 'draft') board.drafts.push(task)
    if (!isDispatchable(task.status)) continue
    const waitingOn = task.depends_on.filter((id) => statusOf.get(id) !== 'done')
    if (waitingOn.length === 0) board.dispatchable.push(task)
    else board.waiting.push({task, waiting_on: waitingOn})
  }
  return board
}
