/**
 * `mesh architect` in words (issue 20; docs/cli.md, mesh architect): a pass
 * under way, one that ended with its `decisions:` line, and the board the
 * next pass would get. Agents' text (the decisions line, task titles) is
 * printed inert (printable()).
 */
import {printable} from '../client/printable.js'
import type {ArchitectStatus, BoardTask, EndedPass, PassView} from '../daemon/architect/wire.js'

const when = (iso: string) => iso.slice(0, 19).replace('T', ' ')

export function passLines(pass: PassView): string[] {
  const briefs = pass.briefs.length === 0 ? 'no brief yet' : `${pass.briefs.length} brief(s): ${pass.briefs.map((brief) => `${brief.task ?? '(no task)'} → ${brief.member}`).join(', ')}`
  return [
    `Pass ${pass.pass_id} (${pass.trigger}) running in ${pass.conv} since ${when(pass.started_at)}${pass.turn_id ? `, turn ${pass.turn_id}` : ''}.`,
    `  handed ${pass.dispatchable.length} task(s): ${pass.dispatchable.join(', ') || '—'}; ${pass.drafts} draft(s) skipped; ${briefs}`,
  ]
}

export function endedLines(pass: EndedPass): string[] {
  return [`Pass ${pass.pass_id} (${pass.trigger}) ${pass.status} at ${when(pass.ended_at)}:`, `  ${printable(pass.decisions)}`]
}

const taskLine = (task: BoardTask) => `  ${task.id}  ${task.priority || '—'}${task.order === null ? '' : ` (order ${task.order})`}  ${task.status}  ${task.module}  ${printable(task.title)}`

export function statusLines(status: ArchitectStatus): string[] {
  const lines = [`Automatic passes: ${status.auto ? `on (${status.min_interval_seconds > 0 ? `at most one every ${status.min_interval_seconds} s` : 'no minimum interval'})` : 'off (architect.auto in cluster.yaml)'}${status.next_wake_at ? `; a deferred wake is due at ${when(status.next_wake_at)}` : ''}.`]
  if (status.pass) lines.push(...passLines(status.pass))
  else lines.push(status.busy ? 'No pass is running, but the architect is busy.' : 'No pass is running.')
  if (status.last) lines.push(...endedLines(status.last))
  lines.push(status.dispatchable.length === 0 ? 'Nothing is dispatchable now.' : `Dispatchable now, in pass order (${status.dispatchable.length}):`, ...status.dispatchable.map(taskLine))
  if (status.waiting.length > 0) lines.push(`Waiting on dependencies: ${status.waiting.map((task) => `${task.id} (on ${task.waiting_on.join(', ')})`).join(', ')}`)
  if (status.drafts.length > 0) lines.push(`Drafts (only the operator promotes them): ${status.drafts.join(', ')}`)
  return lines
}
