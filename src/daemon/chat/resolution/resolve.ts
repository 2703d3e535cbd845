/**
 * Task resolution (spec: States and transitions — "task any → done when the
 * turn emits chat.assistant.final and task is done"; the daemon stamps
 * `completed_at`, `resolved_by`, `resolved_by_conv` and writes
 * `## Resolution`). The rule of when a turn finished a task is in
 * `taskToResolve`; docs/daemon.md, Task resolution, explains it.
 */
import {isMeshError} from '../../../lib/errors.js'
import {TASK_COMPLETED_EVENT, type TaskCompletedData} from '../../../protocol/tasks.js'
import {editFrontmatter, splitFrontmatter} from '../../../standard/frontmatter.js'
import type {DaemonContext} from '../../context.js'
import {taskMutex, transitionTask} from '../../tasks/index.js'
import type {TurnFinal} from '../types.js'
import {RESOLUTION_HEAD_BYTES, RESOLUTION_MAX_BYTES, RESOLUTION_TAG} from './constants.js'
import {asSectionContent, fenceOpenAt, withResolution} from './section.js'

export type ResolveSkip = 'turn_failed' | 'no_report' | 'not_done' | 'no_task' | 'delegated_without_task'

export type ResolveOutcome =
  | {state: 'resolved'; task: string; path: string; completed_at: string; member: string; conv: string}
  /** The task was done already: nothing was written (the first resolution stays). */
  | {state: 'already_done'; task: string; path: string}
  | {state: 'skipped'; reason: ResolveSkip}
  /** The move was refused (a draft, an archived, unknown or unreadable task): nothing was written. */
  | {state: 'refused'; task: string; code: string; message: string}

type Report = Record<string, unknown>

/** The turn's report: its last `mesh-report` marker (a later one supersedes an earlier one). */
export function reportOf(final: TurnFinal): Report | null {
  const reports = final.markers.filter((marker) => marker.kind === 'report')
  const last = reports.at(-1)
  return last && 'data' in last ? last.data : null
}

/** A report that says the work is finished: `status: "done"` (any case, as delegation reads it) or `outcome: "success"`. */
export const saysDone = (report: Report) => (typeof report.status === 'string' && report.status.trim().toLowerCase() === 'done') || report.outcome === 'success'

const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)

/** The turn answers delegation requests: its `done` closes a brief, which may be only part of a task. */
const isDelegated = (final: TurnFinal, report: Report) =>
  (Array.isArray(report.for) && report.for.length > 0) || final.inputs.some((input) => input.origin === 'delegation' || (input.request_ids?.length ?? 0) > 0)

/**
 * The rule: a turn finished a task when the turn itself succeeded (`status:
 * done`), its last report says done (`status: "done"` or `outcome:
 * "success"`), and a task is named — the report's `task`, else the turn's
 * anchor. A delegated turn resolves only a task its report names: its anchor
 * is the coordinator's task, which the brief may only be part of.
 */
export function taskToResolve(final: TurnFinal): {task: string; report: Report} | {skip: ResolveSkip} {
  if (final.status !== 'done') return {skip: 'turn_failed'}
  const report = reportOf(final)
  if (!report) return {skip: 'no_report'}
  if (!saysDone(report)) return {skip: 'not_done'}
  const named = nonEmpty(report.task)
  if (named) return {task: named, report}
  if (isDelegated(final, report)) return {skip: 'delegated_without_task'}
  const anchored = nonEmpty(final.anchor?.task)
  return anchored ? {task: anchored, report} : {skip: 'no_task'}
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8')

/** The start of `text` in at most `max` bytes of UTF-8: cut at a line end when one is in its second half, else on a character. */
function headOf(text: string, max: number): string {
  const head = Buffer.from(text, 'utf8').subarray(0, max).toString('utf8').replace(/\uFFFD+$/, '')
  const lineEnd = head.lastIndexOf('\n')
  return lineEnd > head.length / 2 ? head.slice(0, lineEnd + 1) : head
}

/** The end of `text` in at most `max` bytes of UTF-8: from a line start when one is in its first half, else on a character. */
function tailOf(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8')
  const tail = bytes.subarray(Math.max(0, bytes.length - max)).toString('utf8').replace(/^\uFFFD+/, '')
  const lineStart = tail.indexOf('\n')
  return lineStart !== -1 && lineStart < tail.length / 2 ? tail.slice(lineStart + 1) : tail
}

/**
 * The section's content: the final message (markers already out), else the
 * report's summary. A message over 8 KB keeps its start and its end — where
 * an agent writes its summary (issue 19) — with a note in between naming
 * where the whole message is; a code block open at the cut is opened again.
 */
export function resolutionContent(final: TurnFinal, report: Report): string {
  const text = final.text.trim() || nonEmpty(report.summary) || `_(The turn ended without a final message.)_`
  if (bytesOf(text) <= RESOLUTION_MAX_BYTES) return asSectionContent(text)
  const head = headOf(text, RESOLUTION_HEAD_BYTES)
  const tail = tailOf(text, RESOLUTION_MAX_BYTES - RESOLUTION_HEAD_BYTES)
  const cutKb = Math.ceil((bytesOf(text) - bytesOf(head) - bytesOf(tail)) / 1024)
  const note = `_(… ${cutKb} KB of the final message cut here, to keep this section under ${RESOLUTION_MAX_BYTES / 1024} KB: the whole message is in the timeline, conversation ${final.conv}, turn ${final.turn_id}.)_`
  const reopened = fenceOpenAt(text, text.length - tail.length)
  return `${asSectionContent(head.trimEnd())}\n\n${note}\n\n${asSectionContent(`${reopened === null ? '' : `${reopened}\n`}${tail.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd()}`)}`
}

/** The task file's text with the resolver's stamps and `## Resolution`; `completed_at` is moveTask's. */
function stamped(text: string, stamps: {member: string; conv: string; content: string}): string {
  const edited = editFrontmatter(text, (document) => {
    document.set('resolved_by', stamps.member)
    document.set('resolved_by_conv', stamps.conv)
  })
  const {body} = splitFrontmatter(edited)
  return edited.slice(0, edited.length - body.length) + withResolution(body, stamps.content)
}

/**
 * Moves the task a finished turn names to `done` through the tasks area's
 * transition (its mutex, its checks with `by` = the profile that ran the
 * turn, its `task.updated`), stamping the resolver and the Resolution in the
 * same one write; then publishes `task.completed`. A task already done is
 * left as it is. A draft is refused: only the operator takes a task out of
 * draft (spec: States and transitions). Refusals are logged, never thrown.
 */
export async function resolveTask(context: DaemonContext, final: TurnFinal): Promise<ResolveOutcome> {
  const decision = taskToResolve(final)
  if ('skip' in decision) return {state: 'skipped', reason: decision.skip}
  const {task, report} = decision
  const member = final.profile
  const log = {conv: final.conv, agent_id: member}
  const content = resolutionContent(final, report)
  try {
    const moved = await transitionTask(context, taskMutex(context), {
      id: task,
      status: 'done',
      // A draft is refused by the transition itself (only the operator takes a task out of draft).
      by: member,
      rewrite: (text) => stamped(text, {member, conv: final.conv, content}),
    })
    if (!moved.changed) {
      context.debug.log({lvl: 'debug', tag: RESOLUTION_TAG, msg: `${moved.id} is done already: its resolution is kept`, ...log, data: {task: moved.id, turn_id: final.turn_id}})
      return {state: 'already_done', task: moved.id, path: moved.path}
    }
    // spec Logs: `task.completed` is a timeline event; the timeline also publishes it on /events.
    context.timeline.append(TASK_COMPLETED_EVENT, {author: member, text: `#${moved.id} done`, task: moved.id, conv: final.conv, member} satisfies TaskCompletedData)
    context.debug.log({lvl: 'info', tag: RESOLUTION_TAG, msg: `${moved.id} resolved by ${member} (${moved.from} → done)`, ...log, data: {task: moved.id, path: moved.path, turn_id: final.turn_id}})
    return {state: 'resolved', task: moved.id, path: moved.path, completed_at: moved.completed_at ?? '', member, conv: final.conv}
  } catch (error) {
    if (!isMeshError(error)) throw error
    context.debug.log({lvl: 'warn', tag: RESOLUTION_TAG, msg: `${task} not resolved: ${error.message}`, ...log, data: {task, code: error.code, turn_id: final.turn_id}})
    return {state: 'refused', task, code: error.code, message: error.message}
  }
}
