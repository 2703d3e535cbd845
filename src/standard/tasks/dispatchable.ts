/**
 * Which tasks may be dispatched now, and in which order (spec: Task file,
 * Dispatchability v15; issue 20). A task is dispatchable when its status is
 * one of the dispatchable words and every task it `depends_on` is done (an
 * archived done task counts; a dependency no task file has does not). A
 * draft never is — only the operator promotes one (spec States and
 * transitions) — but drafts are counted, for the architect's `decisions:`
 * line and `.mesh/state.json`. Archived tasks are history: never dispatched.
 * One board for both, so a pass and the state file never disagree.
 *
 * The order (our choice, docs/daemon.md, Architect): priority (critical,
 * high, medium, low, then none or an unknown word), then `order` (0 to 9,
 * lower first; none after 9), then the id as a person reads it (`API2`
 * before `API10`).
 */
import {compareIds} from '../compare.js'
import {TASK_PRIORITIES} from '../constants.js'
import type {TaskSummary} from './query.js'
import {isDispatchable} from './status.js'

/** A task on the board: its summary. */
export type BoardTask = TaskSummary

export interface Board {
  /** Dispatchable now, in dispatch order. */
  dispatchable: BoardTask[]
  /** Tasks in `draft` (by id): only the operator promotes them. */
  drafts: BoardTask[]
  /** Dispatchable by status but waiting on dependencies not yet done, with those ids. */
  waiting: Array<BoardTask & {waiting_on: string[]}>
}

/** critical first: its index in the reversed list of priorities; none or an unknown word after low. */
const priorityRank = (priority: string) => {
  const index = [...TASK_PRIORITIES].reverse().indexOf(priority as (typeof TASK_PRIORITIES)[number])
  return index === -1 ? TASK_PRIORITIES.length : index
}

/** The dispatch order: priority, then `order`, then id. */
export function compareDispatchOrder(a: BoardTask, b: BoardTask): number {
  return priorityRank(a.priority) - priorityRank(b.priority) || (a.order ?? 10) - (b.order ?? 10) || compareIds(a.id, b.id)
}

/** The ids of the done tasks among readable ones, archived included: a dependency is met when its id is here. */
export function doneTaskIds(tasks: readonly TaskSummary[]): Set<string> {
  const done = new Set<string>()
  for (const task of tasks) if (task.problem === undefined && task.status === 'done') done.add(task.id)
  return done
}

/** spec v15 for one task: the dependencies it still waits on, and whether it may be dispatched now. */
export function dispatchStateOf(task: TaskSummary, done: ReadonlySet<string>): {dispatchable: boolean; waitingOn: string[]} {
  const waitingOn = task.depends_on.filter((id) => !done.has(id))
  return {dispatchable: task.problem === undefined && !task.archived && isDispatchable(task.status) && waitingOn.length === 0, waitingOn}
}

/** The board of the project's task summaries (active and archived, as scanTasks and summarize read them). */
export function dispatchBoard(tasks: readonly TaskSummary[]): Board {
  const done = doneTaskIds(tasks)
  const active = tasks.filter((task) => task.problem === undefined && !task.archived)
  const dispatchable: BoardTask[] = []
  const waiting: Board['waiting'] = []
  for (const task of active) {
    if (!isDispatchable(task.status)) continue
    const state = dispatchStateOf(task, done)
    if (state.dispatchable) dispatchable.push(task)
    else waiting.push({...task, waiting_on: state.waitingOn})
  }
  return {
    dispatchable: dispatchable.sort(compareDispatchOrder),
    drafts: active.filter((task) => task.status === 'draft').sort((a, b) => compareIds(a.id, b.id)),
    waiting: waiting.sort(compareDispatchOrder),
  }
}
