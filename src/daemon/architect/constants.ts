/**
 * The architect area's numbers and names (issue 20, Architect passes;
 * docs/daemon.md, Architect). The debug tags `architect-wake`,
 * `architect-wake.skipped`, `architect-wake.failed`, `ux.run-all` and
 * `ux.stop-architect` are the spec's (Logs and debug stream); the rest are
 * our choices.
 */

/**
 * The conversation every pass runs in. Not `m-architect`: that is the
 * architect's delegation session, where briefs from teammates merge into its
 * next turn, and they must not become part of a pass. One conversation for
 * every pass (not one per pass) so the architect's client session remembers
 * what it decided and deferred before, and the operator reads every pass in
 * one thread (`mesh chat show arch-pass`).
 */
export const PASS_CONV = 'arch-pass'

/** `architect.min_interval_seconds` default: at most one automatic pass a minute (issue 20). */
export const ARCHITECT_MIN_INTERVAL_SECONDS = 60
/** Its upper bound: a day. */
export const ARCHITECT_MIN_INTERVAL_MAX_SECONDS = 24 * 60 * 60

/** Pass ids: `ap-` and 12 hex digits. */
export const PASS_ID_PREFIX = 'ap-'

/** Task events that may make a task dispatchable (a status, a dependency done, a file added or removed). */
export const TASK_EVENTS: ReadonlySet<string> = new Set(['task.created', 'task.updated', 'task.deleted'])

/** Timeline events (docs/daemon-api.md, Architect). */
export const PASS_STARTED_EVENT = 'architect.pass.started'
export const PASS_ENDED_EVENT = 'architect.pass.ended'
/** Published on /events only (not the timeline): each wake and what became of it. */
export const WAKE_EVENT = 'architect.wake'

/** Debug tags: the spec's, and ours for the passes themselves. */
export const TAG_WAKE = 'architect-wake'
export const TAG_WAKE_SKIPPED = 'architect-wake.skipped'
export const TAG_WAKE_FAILED = 'architect-wake.failed'
export const TAG_RUN = 'ux.run-all'
export const TAG_STOP = 'ux.stop-architect'
export const TAG_PASS = 'architect.pass'

/** The `decisions:` line is cut here (the debug stream's msg holds 4,000 characters). */
export const DECISIONS_MAX_CHARS = 2_000
/** Task ids named in one list of the line (dispatched, deferred, drafts) before `+N more`. */
export const IDS_LISTED = 20
/** Tasks described in a pass's brief to the architect before `… and N more`. */
export const TASKS_IN_BRIEF = 50

/** Where the running pass and the last one are kept across restarts, under `.mesh/.runtime/`. */
export const PASS_RECORD_FILE = ['architect', 'passes.json'] as const
