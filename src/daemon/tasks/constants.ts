/**
 * The tasks area's names and numbers (docs/daemon.md, Tasks: one writer,
 * bookkeeping, archive), named once.
 */

/**
 * `.mesh/.runtime/tasks.lock` (relative to `.mesh/`, deny-listed): every
 * writer of a task file — the daemon, and `mesh task …` writing locally when
 * no daemon runs — holds it for its read-modify-write, so a command that
 * found no daemon a moment before one started still never interleaves with it.
 */
export const TASKS_LOCK_FILE = '.runtime/tasks.lock'
/** How long a task writer waits for another process's lock before 503 `tasks_locked` (our choice: a hold is one small rewrite). */
export const TASKS_LOCK_WAIT_MS = 10_000

/** Project-writer reasons (snapshot index, git commit subjects). */
export const TRANSITION_REASON = 'task.transition'
export const CREATE_REASON = 'task.create'
export const ARCHIVE_REASON = 'task.archive'
/**
 * The write that records a commit's SHA in `commit_shas`. A commit made only
 * of such writes (git.auto_commit's follow-up) is not itself recorded, or
 * each record would commit another one for ever.
 */
export const COMMIT_SHAS_REASON = 'task.commit-shas'
/** Writes that keep the books of a task rather than work on it: a commit made only of them is not recorded in `commit_shas`. */
export const BOOKKEEPING_REASONS: readonly string[] = [COMMIT_SHAS_REASON, ARCHIVE_REASON]

/** `mesh task archive` and `POST /tasks/archive` without an age: done tasks completed 30 days ago or more (our choice). */
export const DEFAULT_ARCHIVE_DAYS = 30
export const DAY_MS = 24 * 60 * 60 * 1000

/** How often the daemon's archive pass runs when cluster.yaml `tasks.archive_after_days` is set (our choice; also once at start). */
export const ARCHIVE_INTERVAL_MS = 60 * 60 * 1000

/** Debug stream tags of the area. */
export const ARCHIVE_TAG = 'tasks.archive'
export const BOOKKEEPING_TAG = 'tasks.commit-shas'
