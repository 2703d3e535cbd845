/**
 * The words delegation puts in front of agents: a brief's header, a report
 * read out of its marker, the requester's wake and the git-manager's commit
 * brief. spec v38: reports are agent-to-agent and never shown as raw JSON, so
 * a wake is written as sentences (docs/daemon.md, Delegation).
 */
import type {TurnAnchor} from '../types.js'
import {FILES_LISTED, SUMMARY_MAX_CHARS} from './constants.js'
import type {DelegationOutcome, LedgerRow} from './ledger.js'

/** A `mesh-report` marker's fields, checked. */
export interface Report {
  status: string | null
  outcome: DelegationOutcome
  /** The request ids it answers; undefined answers all open ones (spec v34). */
  for?: string[]
  summary: string
  files: string[]
  /** The commit sha, null when nothing was committed, undefined when the report does not say. */
  commit?: string | null
  subject?: string
  task?: string
}

/** A summary as the ledger keeps it and a wake shows it. */
export const cut = (text: string, max = SUMMARY_MAX_CHARS) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : typeof value === 'string' && value !== '' ? [value] : [])

/** spec v34: `status: done` reads as `outcome: success`; failed words are failure, `blocked` stays; anything else (or nothing) is partial. */
export function outcomeOf(status: unknown): DelegationOutcome {
  const word = typeof status === 'string' ? status.trim().toLowerCase() : ''
  if (['done', 'success', 'succeeded', 'ok', 'complete', 'completed'].includes(word)) return 'success'
  if (['failed', 'failure', 'error', 'fail'].includes(word)) return 'failure'
  if (word === 'blocked') return 'blocked'
  return 'partial'
}

export function readReport(data: Record<string, unknown>): Report {
  const summary = typeof data.summary === 'string' ? data.summary : typeof data.text === 'string' ? data.text : ''
  const report: Report = {status: typeof data.status === 'string' ? data.status : null, outcome: outcomeOf(data.status), summary: cut(summary.trim()), files: strings(data.files)}
  if (data.for !== undefined && data.for !== null) report.for = strings(data.for)
  if (data.commit === null || typeof data.commit === 'string') report.commit = data.commit
  if (typeof data.subject === 'string') report.subject = data.subject
  if (typeof data.task === 'string') report.task = data.task
  return report
}

const anchorWords = (anchor: TurnAnchor) => [anchor.initiative && `#${anchor.initiative}`, anchor.task && `#${anchor.task}`].filter(Boolean).join(' · ')

const fileList = (files: string[]) => {
  const shown = files.slice(0, FILES_LISTED).join(', ')
  return files.length > FILES_LISTED ? `${shown} and ${files.length - FILES_LISTED} more` : shown
}

/** The turn text a brief becomes in the member's session: who asks, under which id, and how to answer. */
export function briefText(row: LedgerRow): string {
  const who = row.requester.conv === null ? 'the operator' : `${row.requester.member} (conversation ${row.requester.conv})`
  const anchor = anchorWords(row.anchor)
  return [
    `Delegation ${row.request_id} from ${who}${anchor ? `, working on ${anchor}` : ''}:`,
    '',
    row.brief.trim(),
    '',
    `When it is done (or cannot be), answer with a mesh-report block whose "for" is ["${row.request_id}"].`,
  ].join('\n')
}

/** The brief again, after a restart cut it off (issue 19, Recovery): said, so the member checks what it already did. */
export function resentBriefText(row: LedgerRow): string {
  return `(Re-sent: the daemon stopped before you answered this delegation. Check what you already did for it before you go on.)\n\n${briefText(row)}`
}

/** The requester's wake for one closed row: who answered, how it went, the summary and the files. */
export function wakeText(row: LedgerRow): string {
  const lines = [row.outcome === 'cancelled' ? `The operator cancelled delegation ${row.request_id} to ${row.member}; do not wait for its report.` : `${row.member} answered delegation ${row.request_id}: ${row.outcome ?? 'closed'}.`]
  if (row.reason) lines.push(`Reason: ${row.reason}.`)
  if (row.summary) lines.push('', row.summary)
  if (row.files?.length) lines.push('', `Files: ${fileList(row.files)}`)
  if (typeof row.commit === 'string') lines.push(`Commit: ${row.commit}`)
  else if (row.commit === null && row.files?.length) lines.push('Not committed yet.')
  return lines.join('\n')
}

/** spec v38: with a git-manager on the team, a report of uncommitted files becomes its brief. */
export function commitBriefText(reporter: string, report: Report, anchor: TurnAnchor): string {
  const task = report.task ?? anchor.task
  const lines = [`Commit the work ${reporter} reported as done, as one commit of exactly these files:`, '', ...report.files.slice(0, FILES_LISTED).map((file) => `- ${file}`)]
  if (report.files.length > FILES_LISTED) lines.push(`- … and ${report.files.length - FILES_LISTED} more listed by ${reporter}`)
  lines.push('')
  if (report.subject) lines.push(`Subject: ${report.subject}`)
  else lines.push(`Subject: a Conventional Commits line of your own${task ? `, ending in [${task}]` : ''}.`)
  if (task) lines.push(`Task: ${task}`)
  if (report.summary) lines.push('', `What ${reporter} said: ${cut(report.summary, 1_000)}`)
  return lines.join('\n')
}

/** One brief of a turn the daemon could not hand on: a refusal of the ledger, an unknown member, a bad marker. */
export interface Refused {
  member: string
  code: string
  message: string
}

/** The wake telling a requester that its briefs were refused, so it can adapt. */
export function refusalText(refused: Refused[]): string {
  return refused.map(({member, code, message}) => `Delegation refused: ${code} (to ${member || 'no member'}). ${message.replace(/\.$/, '')}.`).join('\n')
}
