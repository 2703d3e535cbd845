/**
 * Which client session a turn runs in (issue 19, Sessions that survive
 * failure; docs/daemon.md, Chat — sessions). A session counts only once the
 * client confirmed it: claude's `system`/`init` line, codex's
 * `thread.started`, gemini's `init` (a `text` client, which confirms
 * nothing, by ending its turn with exit 0). A turn resumes the confirmed
 * session; otherwise it starts a fresh one with a uuid never handed out
 * before — so a turn that died after claude took its `--session-id` never
 * makes the next one ask for that id again ("Session ID … is already in
 * use"). A resumed turn whose client exits with an error without
 * confirming the session again drops it (the client could not resume it):
 * the next turn starts fresh. A resumed turn stopped from outside (the
 * daemon stopping, a cancel, the timeout) keeps it: nothing says it is gone. Whenever a turn
 * starts fresh after earlier ones, the thread says so (`chat.session`).
 */
import {randomUUID} from 'node:crypto'
import type {ClientTemplate} from './clients/templates.js'
import type {StoredConversation} from './conversations.js'

export interface SessionPlan {
  /** What `{session}` is: the confirmed session resumed, or the fresh uuid. */
  session: string
  resume: boolean
  /** Why this turn starts a fresh session after earlier ones, for the thread; null otherwise. */
  note: string | null
}

/** The session of the next turn of `conv` run by `client` with `template`. */
export function planSession(conv: StoredConversation, client: string, template: Pick<ClientTemplate, 'resume'>): SessionPlan {
  const confirmed = conv.client_session ?? null
  if (template.resume !== undefined && confirmed && confirmed.client === client) return {session: confirmed.id, resume: true, note: null}
  const changed = template.resume !== undefined && confirmed && confirmed.client !== client ? `the member's client is now ${client}, not ${confirmed.client}: this turn starts a fresh session` : null
  return {session: conv.session_id, resume: false, note: conv.session_note ?? changed}
}

export interface SessionOutcome {
  status: 'done' | 'failed'
  /** The failure's reason (TurnFailure): only a client's own error exit disproves a session. */
  reason?: string
  /** The id the client confirmed in its stream, or null. */
  confirmed: string | null
  /** Whether the client's format can confirm a session at all (every format but `text`). */
  structured: boolean
  /** Why the turn failed, in a few words, for the note. */
  why?: string
}

/** After the turn: records what the client confirmed, so the next turn resumes it or starts fresh (said in the note). */
export function settleSession(conv: StoredConversation, client: string, template: Pick<ClientTemplate, 'resume'>, plan: SessionPlan, outcome: SessionOutcome): void {
  delete conv.session_note
  // A fresh id is handed out once: the client may hold it now, confirmed or not.
  if (!plan.resume) conv.session_id = randomUUID()
  if (template.resume === undefined) return
  const confirmed = outcome.confirmed ?? (!outcome.structured && outcome.status === 'done' ? plan.session : null)
  if (confirmed !== null) {
    conv.client_session = {client, id: confirmed}
    return
  }
  if (!plan.resume) {
    if (outcome.status === 'failed') conv.session_note = `the last turn failed before ${client} confirmed its session${outcome.why ? ` (${outcome.why})` : ''}: this turn starts a fresh session`
    return
  }
  // Resumed: a done turn that said nothing keeps the session; one whose client exited with an error without confirming it lost it.
  if (outcome.status === 'failed' && outcome.reason === 'exit') {
    conv.client_session = null
    conv.session_note = `${client} did not resume session ${plan.session}${outcome.why ? ` (${outcome.why})` : ''}: this turn starts a fresh session, without the earlier turns' context`
  }
}
