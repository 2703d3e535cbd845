/**
 * `GET /tasks`: the project's active tasks as a board reads them (issue 22;
 * docs/daemon-api.md, Tasks): each task's summary with its tags, whether it
 * may be dispatched now (spec v15: its status, and every dependency done —
 * the architect's own board decides, src/standard/tasks/dispatchable.ts)
 * and which of its dependencies are not done yet. Archived tasks are read
 * for that (an archived done task counts as done) but not listed. Read from
 * the task index (task-index.ts); the board of one set of records is worked
 * out once, whoever asks.
 */
import {compareDispatchOrder, dispatchBoard, summarize, type TaskRecord, type TaskSummary} from '../../standard/tasks/index.js'
import type {TaskIndex} from './task-index.js'

export interface BoardTask extends Omit<TaskSummary, 'archived' | 'dispatchable'> {
  tags: string[]
  /** spec v15, now: a dispatchable status and every dependency done. */
  dispatchable: boolean
  /** The `depends_on` ids that are not done (a dependency no task file has is not done either). */
  blocked_by: string[]
}

export interface BoardAnswer {
  tasks: BoardTask[]
  generated_at: string
}

const tagsOf = (record: TaskRecord) => (Array.isArray(record.data.tags) ? record.data.tags.filter((tag): tag is string => typeof tag === 'string') : [])

/** The index hands out the same array until a file changes: its board is kept with it. */
const boards = new WeakMap<TaskRecord[], BoardTask[]>()

function boardTasks(records: TaskRecord[]): BoardTask[] {
  const known = boards.get(records)
  if (known) return known
  const summaries = records.map(summarize)
  const dispatchable = new Set(dispatchBoard(summaries).dispatchable.map((task) => task.path))
  const done = new Set(summaries.filter((task) => task.problem === undefined && task.status === 'done').map((task) => task.id))
  const tasks = records
    .map((record, index) => ({record, summary: summaries[index]}))
    .filter(({record}) => !record.archived)
    .sort((a, b) => compareDispatchOrder(a.summary, b.summary))
    .map(({record, summary}): BoardTask => {
      const {archived: _archived, dispatchable: _byStatus, ...fields} = summary
      return {...fields, tags: tagsOf(record), dispatchable: dispatchable.has(summary.path), blocked_by: summary.depends_on.filter((id) => !done.has(id))}
    })
  boards.set(records, tasks)
  return tasks
}

/** The board of the project's task files (active and archived, as scanTasks reads them); `ids`: only these tasks. */
export function boardOf(records: TaskRecord[], now: number = Date.now(), ids?: ReadonlySet<string>): BoardAnswer {
  const tasks = boardTasks(records)
  return {tasks: ids ? tasks.filter((task) => ids.has(task.id)) : tasks, generated_at: new Date(now).toISOString()}
}

/** The active tasks in dispatch order (priority, order, id), each with its board fields; `ids`: only these. */
export const readBoard = async (index: TaskIndex, now: number = Date.now(), ids?: ReadonlySet<string>): Promise<BoardAnswer> => boardOf(await index.records(), now, ids)
