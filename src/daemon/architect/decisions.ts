/**
 * The one `decisions:` line that ends a pass (spec: States and transitions —
 * "drafts skipped in a pass are counted in its end-of-pass `decisions:`
 * line"; issue 20). When the architect's last turn of a pass that ran to its
 * end wrote a line starting `decisions:`, that line is the pass's (with the
 * drafts clause added when it does not speak of drafts: the spec wants them
 * counted). Otherwise the daemon writes it from what happened: the briefs
 * the pass opened (dispatched), the tasks it was handed and did not brief
 * (deferred, and why), the drafts it skipped. docs/daemon.md, Architect.
 */
import {DECISIONS_MAX_CHARS, IDS_LISTED} from './constants.js'
import type {PassBrief, PassStatus} from './wire.js'

export interface DecisionFacts {
  status: PassStatus
  /** How a pass that did not run to its end ended, in words: `stopped by the operator`, `the daemon stopped`… */
  ending?: string
  /** The task ids handed to the architect, in dispatch order. */
  offered: string[]
  drafts: string[]
  briefs: PassBrief[]
  /** Briefs of the pass the daemon refused (delegation.refused). */
  refused: Array<{member: string; task: string | null; code: string}>
  /** The architect's own `decisions:` line, from its last turn's text. */
  architectLine: string | null
}

const LINE = /^[\s>*_`#-]*decisions\s*:\s*(.*)$/i

/** The last line of `text` that starts `decisions:` (markdown dressing allowed), normalised; null when none says anything. */
export function findDecisionsLine(text: string): string | null {
  let found: string | null = null
  for (const line of text.split('\n')) {
    const match = LINE.exec(line.trim())
    if (!match) continue
    // Dressing around the word (`**decisions:** …`) is dropped at both ends of the rest.
    const rest = match[1].replace(/^[*_`\s]+/, '').replace(/[*_`\s]+$/, '')
    if (rest !== '') found = `decisions: ${rest.replace(/\s+/g, ' ')}`
  }
  return found
}

/** `API1, API2, API3 (+4 more)` */
const listed = (ids: string[]) => (ids.length > IDS_LISTED ? `${ids.slice(0, IDS_LISTED).join(', ')} (+${ids.length - IDS_LISTED} more)` : ids.join(', '))

const draftsClause = (drafts: string[]) => (drafts.length === 0 ? 'drafts skipped 0' : `drafts skipped ${drafts.length}: ${listed(drafts)} (only the operator promotes a draft)`)

function dispatchedClause(briefs: PassBrief[]): string {
  if (briefs.length === 0) return 'dispatched 0'
  // One entry per task (its members joined), then the briefs that named no task.
  const byTask = new Map<string, string[]>()
  const untasked: string[] = []
  for (const brief of briefs) {
    if (brief.task === null) untasked.push(brief.member)
    else byTask.set(brief.task, [...new Set([...(byTask.get(brief.task) ?? []), brief.member])])
  }
  const entries = [...[...byTask].map(([task, members]) => `${task} → ${members.join(', ')}`), ...untasked.map((member) => `(no task) → ${member}`)]
  const shown = entries.length > IDS_LISTED ? [...entries.slice(0, IDS_LISTED), `(+${entries.length - IDS_LISTED} more)`] : entries
  return `dispatched ${entries.length}: ${shown.join(', ')}`
}

function deferredClause(facts: DecisionFacts): string {
  const briefed = new Set(facts.briefs.flatMap((brief) => (brief.task === null ? [] : [brief.task])))
  const deferred = facts.offered.filter((id) => !briefed.has(id))
  if (deferred.length === 0) return 'deferred 0'
  const why = (id: string) => {
    const refusal = facts.refused.find((refused) => refused.task === id)
    if (refusal) return `brief to ${refusal.member} refused: ${refusal.code}`
    if (facts.status === 'stopped') return 'the pass was stopped before it was briefed'
    if (facts.status === 'failed') return 'the pass failed before it was briefed'
    return 'not briefed in this pass'
  }
  // Tasks grouped by reason, in dispatch order.
  const groups = new Map<string, string[]>()
  for (const id of deferred) groups.set(why(id), [...(groups.get(why(id)) ?? []), id])
  return `deferred ${deferred.length}: ${[...groups].map(([reason, ids]) => `${listed(ids)} (${reason})`).join(', ')}`
}

const cut = (line: string, max = DECISIONS_MAX_CHARS) => (line.length > max ? `${line.slice(0, max - 1)}…` : line)

/** The pass's `decisions:` line. */
export function decisionsLine(facts: DecisionFacts): string {
  if (facts.status === 'done' && facts.architectLine) {
    if (/draft/i.test(facts.architectLine)) return cut(facts.architectLine)
    // The drafts count is the spec's: a long line of the architect's is cut before it, never the count.
    const drafts = `; ${draftsClause(facts.drafts)}`
    return cut(`${cut(facts.architectLine, Math.max(DECISIONS_MAX_CHARS - drafts.length, 40))}${drafts}`)
  }
  const clauses = [...(facts.ending ? [facts.ending] : []), dispatchedClause(facts.briefs), deferredClause(facts), draftsClause(facts.drafts)]
  return cut(`decisions: ${clauses.join('; ')}`)
}
