/**
 * The message of a commit made for a team member (spec: Commit and agent
 * conventions; DECISIONS: Commit conventions): a Conventional Commit subject
 * ending in `[<task-id>]`, the member's body, and the trailers `Agent:`,
 * `Model:` and a co-author line that names the member. docs/daemon.md,
 * Agent commits.
 */
import {invalid} from '../../../lib/errors.js'
import {COMMIT_TYPES, TASK_ID_LOOSE} from '../../../standard/constants.js'
import {AGENT_EMAIL_DOMAIN} from './constants.js'

/** `<type>(<scope>)?!?: <subject>`: one of the eleven types, a scope of one word (no spaces or parentheses), a subject that is not blank. */
export const CONVENTIONAL_SUBJECT = new RegExp(String.raw`^(?:${COMMIT_TYPES.join('|')})(?:\([^()\s]+\))?!?: \S.*$`)
const TASK_SUFFIX = /\s\[[^\]]*\]$/
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/

export interface MemberCommitMessageInput {
  /** The member id: `Agent:` and the co-author's address. */
  member: string
  /** The member's card title, shown as the co-author's name (the id when the card has none). */
  title?: string | null
  /** `Model:` — the model the member's turn ran with. */
  model: string
  subject: string
  body?: string
  /** Added as ` [<task>]` when the subject ends with no `[…]` of its own. */
  task?: string
}

/** The co-author line: `<title> (mesh <id>) <<id>@agents.mesh.invalid>`; `<`, `>` and line breaks are taken out of the title. */
export function coAuthorLine(member: string, title?: string | null): string {
  const name = (title ?? '').replace(/[<>\r\n]+/g, ' ').replace(/\s+/g, ' ').trim() || member
  return `Co-authored-by: ${name} (mesh ${member}) <${member}@${AGENT_EMAIL_DOMAIN}>`
}

/** The subject as committed: checked, and given ` [<task>]` when a task is known and the subject names none. */
export function memberSubject(subject: string, task?: string): string {
  const line = subject.trim()
  if (!CONVENTIONAL_SUBJECT.test(line) || CONTROL.test(line)) {
    throw invalid('commit_subject_invalid', `"${line.slice(0, 80)}" is not a Conventional Commit subject: <type>(<scope>): <subject>, type one of ${COMMIT_TYPES.join(', ')}`, {field: 'subject'})
  }
  if (task === undefined || TASK_SUFFIX.test(line)) return line
  if (!TASK_ID_LOOSE.test(task)) throw invalid('invalid_id', `"${task.slice(0, 40)}" is not a task id`, {field: 'task'})
  return `${line} [${task}]`
}

export function memberCommitMessage(input: MemberCommitMessageInput): {subject: string; message: string} {
  const model = input.model.trim()
  if (model === '' || /[\r\n]/.test(model) || CONTROL.test(model)) throw invalid('commit_model_invalid', 'Model: needs a model id on one line', {field: 'model'})
  const subject = memberSubject(input.subject, input.task)
  const body = (input.body ?? '').replace(/\r\n/g, '\n').trim()
  const trailers = [`Agent: ${input.member}`, `Model: ${model}`, coAuthorLine(input.member, input.title)].join('\n')
  return {subject, message: `${subject}\n\n${body === '' ? '' : `${body}\n\n`}${trailers}\n`}
}
