/**
 * Which tasks may be dispatched now, and in which order (spec: Task file,
 * Dispatchability v15; issue 20, Architect passes). A task is dispatchable
 * when its status is one of the dispatchable words and every task it
 * `depends_on` is done; a draft never is, but the daemon counts drafts for
 * the architect's `decisions:` line. Archived tasks are never dispatched.
 *
 * The order (our choice, docs/daemon.md, Architect): priority (critical,
 * high, medium, low, then none or an unknown word), then `order` (0 to 9,
 * lower first; none after 9), then the id as a person reads it (`API2`
 * before `API10`).
 */
import {compareIds} from '../compare.js'
import {TASK_PRIORITIES} from '../constants.js'
import {isDispatchable} from './status.js'
import type {TaskRecord} from './task-files.js'

export interface BoardTask {
  id: string
  title: string
  status: string
  priority: string
  /** `order` 0 to 9, or null when absent (or not an integer). */
  order: number | null
  module: string
  owner: string
  depends_on: string[]
}

export interface Board {
  /** Dispatchable now, in dispatch order. */
  dispatchable: BoardTask[]
  /** Tasks in `draft` (by id): only the operator promotes them. */
  drafts: BoardTask[]
  /** Dispatchable by status but waiting on dependencies not yet done, with those ids. */
  waiting: Array<BoardTask & {waiting_on: string[]}>
}

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value))
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])

function boardTask(record: TaskRecord): BoardTask {
  const order = record.data.order
  return {
    id: record.id,
    title: text(record.data.title),
    status: text(record.data.status),
    priority: text(record.data.priority),
    order: Number.isInteger(order) ? (order as number) : null,
    module: record.module,
    owner: text(record.data.owner),
    depends_on: strings(record.data.depends_on),
  }
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

/** The board of the project's task records (active and archived, as scanTasks reads them). */
export function readBoard(records: TaskRecord[]): Board {
  const readable = records.filter((record) => record.problem === undefined)
  // Done tasks, archived ones included: a dependency on an archived task is met.
  const done = new Set(readable.filter((record) => text(record.data.status) === 'done').map((record) => record.id))
  const active = readable.filter((record) => !record.archived).map(boardTask)
  const dispatchable: BoardTask[] = []
  const waiting: Board['waiting'] = []
  for (const task of active) {
    if (!isDispatchable(task.status)) continue
    const waitingOn = task.depends_on.filter((id) => !done.has(id))
    if (waitingOn.length === 0) dispatchable.push(task)
    else waiting.push({...task, waiting_on: waitingOn})
  }
  return {
    dispatchable: dispatchable.sort(compareDispatchOrder),
    drafts: active.filter((task) => task.status === 'draft').sort((a, b) => compareIds(a.id, b.id)),
    waiting: waiting.sort(compareDispatchOrder),
  }
}
