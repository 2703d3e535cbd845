/**
 * The anchor of a turn (spec: Commit and agent conventions — "every agent
 * turn anchors to an initiative and task … stating `→ working on #<init> ·
 * #<task>`"): read from an agent's output, and located before a turn from
 * what the turn is given. docs/daemon.md, Task resolution.
 */
import {MENTION_TOKEN} from '../../../standard/constants.js'
import {findTask, scanTasks, type TaskRecord} from '../../../standard/tasks/index.js'
import type {DaemonContext} from '../../context.js'
import type {TurnAnchor} from '../types.js'

/**
 * `→ working on #I1 · #API3` or `-> working on #API3`, once the line's
 * markdown dressing (quote, emphasis, code ticks) and a closing full stop are
 * taken off. The two ids are separated by `·` (the spec's), `•`, `|` or `,`;
 * a note may follow after ` - `, `—`, `–`, `:` or `(`.
 */
const ID = String.raw`(#[^\s·•|,:()]+)`
const ANCHOR_LINE = new RegExp(String.raw`^(?:→|->)\s*working on\s+${ID}(?:\s*[·•|,]\s*${ID})?(?:\s*[—–:(].*|\s+-\s.*)?$`, 'i')
const DRESSING_START = /^(?:>\s*)*[*_`\s]*/
const DRESSING_END = /[*_`\s.]*$/

/** `#id` mentions standing alone: not `page#part` of a URL nor `##` of a heading. */
const MENTION = /(?<![\w#/&])#([A-Za-z][A-Za-z0-9_-]{1,31})(?![A-Za-z0-9_-])/g

/** The anchor a line states, or null; each id must be a mention token (`^#[A-Za-z][A-Za-z0-9_-]{1,31}$`). */
function anchorOfLine(line: string): TurnAnchor | null {
  const bare = line.replace(DRESSING_START, '').replace(DRESSING_END, '')
  const match = ANCHOR_LINE.exec(bare)
  if (!match) return null
  const ids = [match[1], match[2]].filter((id): id is string => id !== undefined)
  if (!ids.every((id) => MENTION_TOKEN.test(id))) return null
  return ids.length === 2 ? {initiative: ids[0].slice(1), task: ids[1].slice(1)} : {task: ids[0].slice(1)}
}

/**
 * The anchor line of an agent's output: the last line that states one (an
 * agent that first located or created its task states the anchor it ended
 * on), or null when no line does.
 */
export function parseAnchor(text: string): TurnAnchor | null {
  let found: TurnAnchor | null = null
  for (const line of text.split(/\r?\n/)) found = anchorOfLine(line) ?? found
  return found
}

/** The `#id` mentions of a text, in order, without repeats. */
export function mentionsOf(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((match) => match[1]))]
}

/** An active (not archived) task with that id, or null (unknown, ambiguous, archived). */
async function activeTask(root: string, id: string, records: TaskRecord[]): Promise<TaskRecord | null> {
  try {
    const record = await findTask(root, id, records)
    return record.archived ? null : record
  } catch {
    return null
  }
}

const initiativeOf = (record: TaskRecord) => (typeof record.data.initiative === 'string' && record.data.initiative !== '' ? record.data.initiative : undefined)

export interface LocateInput {
  /** An anchor given with the turn (TurnInput.anchor): its task wins when it exists. */
  anchor?: TurnAnchor
  /** The turn's text: its first `#<id>` that names an existing task is the anchor otherwise. */
  text: string
}

/**
 * The anchor to tell an agent before its turn: the given task when it names
 * an active task, else the first `#<id>` of the text that does; the
 * initiative is the given one, else the task's `initiative` field. Null when
 * no task is found — the agent then locates or creates one itself (spec).
 * Archived tasks are history and are never an anchor.
 */
export async function locateAnchor(context: DaemonContext, input: LocateInput): Promise<TurnAnchor | null> {
  const candidates = [...(input.anchor?.task ? [input.anchor.task] : []), ...mentionsOf(input.text)]
  if (candidates.length === 0) return null
  const records = await scanTasks(context.root, {includeArchived: false})
  for (const [index, id] of candidates.entries()) {
    const record = await activeTask(context.root, id, records)
    if (!record) continue
    const given = index === 0 && input.anchor?.task ? input.anchor.initiative : undefined
    const initiative = given ?? initiativeOf(record)
    return initiative ? {initiative, task: record.id} : {task: record.id}
  }
  return null
}
