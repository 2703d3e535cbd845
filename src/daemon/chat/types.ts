/**
 * The chat area's seams: what a turn is given, what it ends with, and the
 * engine that queue, delegation and task resolution hang on. The engine is
 * src/daemon/chat/engine.ts; docs/daemon-api.md, Chat, documents the wire.
 */

/** Why a turn was started: the route or the daemon's own step that asked for it (`pass`: an architect pass, issue 20). */
export type TurnOrigin = 'send' | 'dispatch' | 'ask' | 'queue' | 'delegation' | 'wake' | 'pass'

/** An initiative and a task a turn works on (spec: every agent turn anchors to both). */
export interface TurnAnchor {
  initiative?: string
  task?: string
}

export interface TurnInput {
  conv: string
  /** The member whose session this conv is: its card runs the turn unless `become` names another. */
  member: string
  /** The user text or brief of this turn. */
  text: string
  /** `operator`, a member id, `queue` or `daemon`. */
  author: string
  origin: TurnOrigin
  /** Merged into the conv's next turn when it is live (delegation briefs and wakes) instead of a turn of its own. */
  merge?: boolean
  anchor?: TurnAnchor
  /** spec v36 `become`: this one turn runs with that teammate's profile. */
  become?: string
  /** The delegation requests this turn answers (set by delegation). */
  request_ids?: string[]
  /** Free data an area passes to its own final hook (e.g. the ask's request id). */
  meta?: Record<string, unknown>
}

export type MarkerKind = 'report' | 'delegate' | 'become' | 'commit'

export type Marker = {kind: MarkerKind; data: Record<string, unknown>} | {kind: 'invalid'; name: string; error: string}

/**
 * Why a turn failed. `cancelled`: the operator stopped it (issue 19, See and
 * stop); `daemon_lost`: the daemon that ran it was killed, and the next start
 * reaped its client and wrote this final (issue 19, Recovery).
 */
export type TurnFailure = 'exit' | 'timeout' | 'killed' | 'spawn' | 'output_too_large' | 'shutdown' | 'cancelled' | 'daemon_lost'

/**
 * What a turn's client reported it used (issue 19, Cost and usage): each
 * field null when the client did not report it (a `text` client reports
 * none). `duration_ms` and `tool_calls` are the daemon's own count.
 */
export interface TurnUsage {
  input_tokens: number | null
  output_tokens: number | null
  cache_read_tokens: number | null
  cache_write_tokens: number | null
  cost_usd: number | null
  duration_ms: number
  tool_calls: number
}

/** How a turn ended: the fields the TurnFinal and its `chat.assistant.final` event share. */
export interface TurnEnding {
  turn_id: string
  member: string
  /** The profile the turn ran with: `become`'s member, or `member`. */
  profile: string
  status: 'done' | 'failed'
  reason?: TurnFailure
  /** Why a failed turn failed, in a sentence (a refused clients file, stderr's tail, the timeout). */
  detail?: string
  exit_code: number | null
  /** The `→ working on #<init> · #<task>` line of the output, or the input's anchor. */
  anchor?: TurnAnchor
  /** What the client reported it used, and the daemon's own count (issue 19, Cost and usage); turn.ts sets it on every final; absent on finals written before usage was recorded. */
  usage?: TurnUsage
}

export interface TurnFinal extends TurnEnding {
  conv: string
  /** The final message as the operator sees it: markers removed. */
  text: string
  /** Everything the client printed (sanitised), markers included. */
  raw: string
  markers: Marker[]
  /** The turn inputs this turn answered (one, or several merged). */
  inputs: TurnInput[]
  started_at: string
  finished_at: string
}

export interface ConversationView {
  conv: string
  member: string
  session_id: string
  /** A turn of this conv is running. */
  live: boolean
  /** Inputs waiting for the conv's next turn. */
  waiting: number
  turns: number
  /** The running turn, if any. */
  turn_id: string | null
  last_final_at: string | null
  /** Its next turn waits for the daily budget (`--max-cost-per-day`); absent otherwise. */
  held?: 'budget'
}

export interface SubmitResult {
  conv: string
  turn_id: string
  state: 'running' | 'waiting'
}

export type FinalHook = (final: TurnFinal) => Promise<void> | void

export interface ChatEngine {
  /** Starts or lines up a turn; 429 `at_capacity` when running and waiting turns are at their limits. */
  submit(input: TurnInput): Promise<SubmitResult>
  conversation(conv: string): ConversationView | null
  conversations(): ConversationView[]
  /** A turn is running (its final not yet out) or waiting in this conv. */
  isLive(conv: string): boolean
  /** Runs after each turn's final is written, in registration order (resolution, then delegation). */
  onFinal(hook: FinalHook): () => void
  /** A conv went idle: its final was emitted and nothing runs or waits in it, and it is not coordinating. */
  onIdle(listener: (conv: string) => void): () => void
  /** Delegation adds one: a conv waiting on open requests it made is coordinating, so not idle for the queue. */
  addCoordinatingCheck(check: (conv: string) => boolean): void
  /** Announces `conv` idle if nothing runs or waits in it and it is not coordinating (after a coordinating check turned false outside a final). */
  settle(conv: string): void
  /** Kills running turns (recorded as failed, reason `shutdown`) and refuses new ones. */
  close(): Promise<void>
}
