/**
 * The architect area's wire shapes (issue 20; docs/daemon-api.md,
 * Architect): route answers, the timeline events of a pass (another area's
 * session log reads them) and the `architect.wake` event. Type-only, like
 * src/daemon/chat/wire.ts: the code that sends each builds it with
 * `satisfies`, so the two cannot drift, and the CLI loads no server code.
 */
import type {BoardTask} from '../../standard/tasks/dispatchable.js'

export type {BoardTask} from '../../standard/tasks/dispatchable.js'

/** What started a pass: the operator (`POST /architect/run`) or a task that became dispatchable (`architect.auto`). */
export type PassTrigger = 'run' | 'auto'
/** How a pass ended: the architect's conversation went idle, the operator (or the daemon's stop) stopped it, or its last turn failed. */
export type PassStatus = 'done' | 'stopped' | 'failed'
/** Why a wake started no pass (`architect-wake.skipped`). */
export type WakeSkipReason = 'auto_off' | 'busy' | 'debounced' | 'nothing_dispatchable' | 'context_over_budget' | 'budget_exhausted'

/** Timeline `architect.pass.started`. */
export interface PassStartedData {
  author: 'daemon'
  text: string
  pass_id: string
  trigger: PassTrigger
  conv: string
  /** The dispatchable task ids handed to the architect, in dispatch order. */
  dispatchable: string[]
  /** Tasks in `draft`, skipped (only the operator promotes a draft). */
  drafts: number
}

/** Timeline `architect.pass.ended`: `text` and `decisions` are the one `decisions:` line. */
export interface PassEndedData {
  author: 'daemon'
  text: string
  pass_id: string
  conv: string
  status: PassStatus
  decisions: string
}

/** `/events` only, `architect.wake`: one wake and what became of it. */
export interface ArchitectWakeData {
  trigger: PassTrigger
  outcome: 'started' | 'skipped' | 'failed'
  /** The wake's cause, then what became of it, in a sentence. */
  text: string
  reason?: WakeSkipReason
  /** The error code of a failed wake. */
  code?: string
  pass_id?: string
  /** The tasks that became dispatchable (an automatic wake). */
  tasks?: string[]
}

/** A brief the pass handed out (a `delegation.opened` from its conversation). */
export interface PassBrief {
  request_id: string
  member: string
  task: string | null
}

/** The pass under way (`POST /architect/run`, `GET /architect` `pass`). */
export interface PassView {
  pass_id: string
  trigger: PassTrigger
  conv: string
  status: 'running'
  started_at: string
  dispatchable: string[]
  drafts: number
  /** The architect's turn running or waiting in the pass's conversation, if any. */
  turn_id: string | null
  briefs: PassBrief[]
}

/** A pass that ended (`POST /architect/stop`, `GET /architect` `last`). */
export interface EndedPass {
  pass_id: string
  trigger: PassTrigger
  conv: string
  status: PassStatus
  started_at: string
  ended_at: string
  decisions: string
}

/** `GET /architect`. */
export interface ArchitectStatus {
  /** cluster.yaml `architect.auto` (mesh addition; default false). */
  auto: boolean
  min_interval_seconds: number
  conv: string
  /** A pass runs, or an architect conversation has a turn running or waiting, or the pass conversation waits on briefs. */
  busy: boolean
  pass: PassView | null
  last: EndedPass | null
  /** Dispatchable now, in dispatch order. */
  dispatchable: BoardTask[]
  /** Draft task ids (never dispatched; counted in the `decisions:` line). */
  drafts: string[]
  /** Dispatchable by status, waiting on dependencies not yet done. */
  waiting: Array<{id: string; waiting_on: string[]}>
  /** When a deferred automatic wake is due (the debounce), else null. */
  next_wake_at: string | null
}
