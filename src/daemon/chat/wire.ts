/**
 * The chat area's wire shapes, for clients (src/client/daemon/: `mesh ask`,
 * `mesh team watch`). Type-only, like src/registry/wire.ts: the route answers
 * are re-exported or derived from the code that sends them; the event
 * payloads are declared here and turn.ts and engine.ts build theirs with
 * `satisfies`, so the two cannot drift (docs/daemon-api.md, Chat, lists
 * them). The task, team, queue and file-watcher payloads are the daemon's
 * contract with every client, in src/protocol/. A client importing this
 * loads no server code.
 */
import type {MemberSummary} from '../team/cards.js'
import type {Thread} from './thread/read.js'
import type {ConversationView, SubmitResult, TurnAnchor, TurnEnding, TurnFailure, TurnOrigin, TurnUsage} from './types.js'
import type {AccessLevel} from './clients/templates.js'

export type {ConversationView, TurnAnchor, TurnFailure, TurnOrigin, TurnUsage} from './types.js'
export type {TurnRecord} from './engine.js'
export type {MemberSummary} from '../team/cards.js'
export type {AccessLevel} from './clients/templates.js'
export type {LedgerRow, LedgerSnapshot, Requester, DelegationOutcome} from './delegation/ledger.js'
export type {BudgetState} from './usage/budget.js'
export type {UsageTotals, MemberUsage, ConvUsage, DayUsage} from './usage/sum.js'
export type {UsageReport} from './usage/routes.js'
export type {ThreadEntry} from './thread/read.js'
export type {DeployCompletedData} from './agent-reports.js'

/** `GET /chat/conv/<conv>/thread` (issue 19): the conversation read back from the timeline. */
export type ThreadAnswer = Thread & {live: boolean}

/** `POST /chat/send` and `POST /chat/dispatch` (202): the turn started or lined up. */
export type SendAnswer = SubmitResult & {member: string; anchor?: TurnAnchor}
/** `POST /chat/send` body. */
export interface SendBody {
  text: string
  member?: string
  conv?: string
  task?: string
  initiative?: string
}
/** `GET /chat/convs`. */
export interface ConvList {
  convs: ConversationView[]
}
/** `GET /team`: each member with its effective access on this machine (issue 19), null when its `access:` entry is refused. */
export interface TeamList {
  members: Array<MemberSummary & {access: AccessLevel | null}>
}

/** Every chat timeline line carries these (src/daemon/timeline.ts). */
interface TimelineFields {
  author: string
  text: string
  conv: string
}

/** `chat.user`: an input was accepted for a turn (engine.ts submit). */
export interface ChatUserData extends TimelineFields {
  turn_id: string
  member: string
  origin: TurnOrigin
  request_ids?: string[]
}

/** `chat.turn.started`: the turn's process is about to run (turn.ts). */
export interface ChatTurnStartedData extends TimelineFields {
  turn_id: string
  member: string
  profile: string
  client: string
  model: string
  origin: TurnOrigin
  resumed: boolean
  /** The access level the turn runs at (issue 19): an ask's is always `read`. */
  access?: AccessLevel
  /** The task (and initiative) the turn was given to work on, when it was given one (issue 20: `task.started`). */
  anchor?: TurnAnchor
}

/**
 * `chat.session`: the turn starts a fresh client session after earlier turns
 * (issue 19, Sessions that survive failure) — the last one failed before the
 * client confirmed its session, the client could not resume it, or the
 * member's client changed. `text` says which.
 */
export interface ChatSessionData extends TimelineFields {
  turn_id: string
  member: string
  /** The fresh session's id as the daemon handed it out (claude's `--session-id`). */
  session: string
  resumed: false
}

/**
 * `chat.assistant.delta`: one line of the turn's assistant text as soon as
 * it is complete (turn.ts, turn-output.ts); the lines of a marker block are
 * never sent (spec v38).
 */
export interface ChatDeltaData extends TimelineFields {
  turn_id: string
  member: string
  seq: number
}

/** `chat.assistant.final`: the turn ended; `text` without markers (turn.ts). */
export interface ChatFinalData extends TimelineFields, TurnEnding {}

/** `chat.idle` (events only, not in the timeline): the conversation went idle — what `mesh ask` follows a piece of work up to (engine.ts). */
export interface ChatIdleData {
  conv: string
  member: string
}

/**
 * `chat.tool`: one step of a client's tool activity (issue 19, Structured
 * client streams), decoded from its structured stream. `text` is a one-line
 * summary for people (`Edit src/app.ts`); `summary` the tool input in one
 * line, secrets masked; `output` the tool's result, clipped.
 */
export interface ChatToolData extends TimelineFields {
  turn_id: string
  member: string
  seq: number
  /** The client's own id of this tool use, so a result joins its start. */
  tool_use_id: string | null
  tool: string
  summary: string
  status: 'started' | 'done' | 'failed'
  output?: string
}

/** `delegation.opened` (delegation/delegate.ts); `text` is `<requester> → <member>: <brief's first line>`. */
export interface DelegationOpenedData extends TimelineFields {
  request_id: string
  member: string
  requester: {conv: string | null; member: string}
  anchor: TurnAnchor
  chain: string[]
  depth: number
  reused: boolean
}

/** `delegation.closed` (delegation/hook.ts). */
export interface DelegationClosedData extends TimelineFields {
  request_id: string
  outcome: string
  member: string
  requester: {conv: string | null; member: string}
  reason?: string
}

/** `chat.budget.held`: the day's budget is spent, so this conv's next turn waits (engine.ts). */
export interface BudgetHeldData extends TimelineFields {
  member: string
  /** The input at the head of the conv: its turn id once it runs. */
  turn_id: string
  /** The delegation requests the held turn answers. */
  request_ids?: string[]
}

/** `chat.budget.released`: the budget is open again (a new UTC day, a higher limit); the held convs go on. */
export interface BudgetReleasedData {
  author: string
  text: string
  /** Conversations that were waiting. */
  held: number
}

/** `delegation.resent` (delegation/recovery.ts, issue 19): a start re-sent a brief a stopped daemon had left open. */
export interface DelegationResentData extends TimelineFields {
  request_id: string
  member: string
  requester: {conv: string | null; member: string}
  /** The turn that answers it (merged into the session's next turn). */
  turn_id: string
}
