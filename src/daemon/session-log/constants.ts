/**
 * The session log's names and numbers (spec: Folder layout — `log/<YYYY-MM-DD>.md`,
 * "prose session log (local date)", uncommitted; Logs and debug stream —
 * canonical tag `log`). docs/daemon.md, Session log.
 */

/** The folder under `.mesh/` (on the deny-list). */
export const SESSION_LOG_DIR = 'log'
/** The debug-stream tag each line is also said under (a canonical tag of the spec). */
export const SESSION_LOG_TAG = 'log'
/** Text quoted from a turn, a pass or a commit is cut to this many characters: the log says what happened, the timeline holds it all. */
export const QUOTE_MAX_CHARS = 200

/** The events a line is written for: a turn, a pass, a commit, a task move. */
export const LOGGED_EVENTS = ['chat.assistant.final', 'architect.pass.ended', 'commit.created', 'task.updated'] as const
