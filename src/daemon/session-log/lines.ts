/**
 * One prose line of the session log per event (docs/daemon.md, Session log):
 * a turn (`chat.assistant.final`), an architect pass (`architect.pass.ended`),
 * a commit (`commit.created`) and a task move (`task.updated` with `from` and
 * `to`). Text from agents and files is put on one line, its control and
 * bidirectional characters removed and cut to QUOTE_MAX_CHARS: the log is
 * for reading, the timeline keeps everything.
 */
import {cleanText} from '../chat/output-lines.js'
import {QUOTE_MAX_CHARS} from './constants.js'

type Data = Record<string, unknown>

const str = (value: unknown) => (typeof value === 'string' ? value : '')

/** Agent or file text on one line, cleaned and cut. */
export function quote(text: string, max = QUOTE_MAX_CHARS): string {
  const line = cleanText(text).replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** `#<task>` or `#<initiative> · #<task>` of an anchor, or ''. */
const anchorWords = (anchor: unknown) => {
  const {initiative, task} = (anchor ?? {}) as {initiative?: unknown; task?: unknown}
  return [initiative, task].filter((id): id is string => typeof id === 'string' && id !== '').map((id) => `#${quote(id, 40)}`).join(' · ')
}

/** The anchor line (`→ working on #I · #T`) is said as `on #I · #T` already. */
const ANCHOR_LINE = /^[ \t>*_`]*(?:→|->)\s*working on\b.*$/gim

function turnLine(data: Data): string {
  const who = quote(str(data.profile) || str(data.author) || str(data.member), 40) || 'a member'
  const where = `in ${quote(str(data.conv), 80)}`
  const on = anchorWords(data.anchor)
  const said = quote(str(data.text).replace(ANCHOR_LINE, ''))
  if (data.status === 'failed') {
    const why = [str(data.reason), quote(str(data.detail))].filter(Boolean).join(': ')
    return `${who}'s turn ${where}${on ? ` on ${on}` : ''} failed${why ? ` (${why})` : ''}`
  }
  return `${who} finished a turn ${where}${on ? ` on ${on}` : ''}${said ? `: ${said}` : ''}`
}

function passLine(data: Data): string {
  const id = quote(str(data.pass_id), 60)
  const status = quote(str(data.status), 20) || 'ended'
  const decisions = typeof data.decisions === 'string' ? data.decisions : ''
  const text = str(data.text)
  // The decisions line is the pass's account of itself (spec v38); the text when it carries more.
  const said = quote(decisions && !text.includes(decisions) ? `${text} ${decisions}` : text || decisions)
  return `architect pass${id ? ` ${id}` : ''} ${status}${said ? `: ${said}` : ''}`
}

function commitLine(data: Data): string {
  const who = quote(str(data.member) || str(data.author), 40) || 'someone'
  const sha = quote(str(data.sha), 40).slice(0, 12)
  const subject = quote(str(data.subject) || str(data.text))
  return `${who} committed${sha ? ` ${sha}` : ''}${subject ? `: ${subject}` : ''}`
}

/** A move only: `task.updated` without `from`/`to`, or to the status it had, is an edit, not a move. */
function moveLine(data: Data): string | null {
  const from = str(data.from)
  const to = str(data.to)
  if (!to || from === to) return null
  const id = quote(str(data.id), 40)
  const by = quote(str(data.by), 40)
  return `#${id} ${from ? quote(from, 30) : '(none)'} → ${quote(to, 30)}${by ? ` (by ${by})` : ''}`
}

/** The prose for one bus event, or null when it is not one the session log records. */
export function sessionLogLine(type: string, data: unknown): string | null {
  const fields = (data && typeof data === 'object' ? data : {}) as Data
  switch (type) {
    case 'chat.assistant.final':
      return turnLine(fields)
    case 'architect.pass.ended':
      return passLine(fields)
    case 'commit.created':
      return commitLine(fields)
    case 'task.updated':
      return moveLine(fields)
    default:
      return null
  }
}

const two = (n: number) => String(n).padStart(2, '0')

/** The local date of an instant, `YYYY-MM-DD` (spec: the session log is named by local date, the timeline by UTC). */
export const localDay = (ms: number) => {
  const date = new Date(ms)
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`
}

/** The local wall-clock time of an instant, `HH:MM:SS`. */
export const localTime = (ms: number) => {
  const date = new Date(ms)
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
}
