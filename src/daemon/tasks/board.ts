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
import {compareDispatchOrder, dispatchStateOf, doneTaskIds, summarize, type TaskRecord, type TaskSummary} from '../../standard/tasks/index.js'
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

/** What one set of records gives, worked out once: the index hands out the same array until a file changes. */
interface Derived {
  summaries: TaskSummary[]
  done: Set<string>
  /** The whole board, in dispatch order, once asked for. */
  board?: BoardTask[]
}
const derived = new WeakMap<TaskRecord[], Derived>()

function derive(records: TaskRecord[]): Derived {
  let known = derived.get(records)
  if (!known) {
    const summaries = records.map(summarize)
    derived.set(records, (known = {summaries, done: doneTaskIds(summaries)}))
  }
  return known
}

function boardTask(record: TaskRecord, summary: TaskSummary, done: ReadonlySet<string>): BoardTask {
  const {archived: _archived, dispatchable: _byStatus, ...fields} = summary
  const state = dispatchStateOf(summary, done)
  return {...fields, tags: tagsOf(record), dispatchable: state.dispatchable, blocked_by: state.waitingOn}
}

/**
 * The board of the project's task files (active and archived, as scanTasks
 * reads them); `ids`: only these tasks — the page's patch after an event
 * touched them, without the whole board's sort.
 */
export function boardOf(records: TaskRecord[], now: number = Date.now(), ids?: ReadonlySet<string>): BoardAnswer {
  const known = derive(records)
  const {summaries, done} = known
  const generated_at = new Date(now).toISOString()
  // Active tasks (of `ids` when given) in dispatch order, with their board fields.
  const inOrder = (wanted: (summary: TaskSummary) => boolean) =>
    summaries
      .flatMap((summary, index) => (!records[index].archived && wanted(summary) ? [{record: records[index], summary}] : []))
      .sort((a, b) => compareDispatchOrder(a.summary, b.summary))
      .map(({record, summary}) => boardTask(record, summary, done))
  if (ids) return {tasks: inOrder((summary) => ids.has(summary.id)), generated_at}
  known.board ??= inOrder(() => true)
  return {tasks: known.board, generated_at}
}

/** The active tasks in dispatch order (priority, order, id), each with its board fields; `ids`: only these. */
export const readBoard = async (index: TaskIndex, now: number = Date.now(), ids?: ReadonlySet<string>): Promise<BoardAnswer> => boardOf(await index.records(), now, ids)
