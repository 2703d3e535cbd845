/**
 * The git area's numbers and names (docs/daemon.md, Git). The spec fixes
 * `git.auto_pull` (default true) and `git.auto_commit` (default false); the
 * timings are our choice.
 */

/** How often the daemon pulls after the pull at start. */
export const GIT_PULL_INTERVAL_MS = 5 * 60 * 1000
/** A git command that prints nothing for this long is killed (an offline remote, a hung hook). */
export const GIT_TIMEOUT_MS = 15_000
/** Writes that arrive within this window after the first one go into one commit. */
export const GIT_COMMIT_WINDOW_MS = 500
/** A commit that meets another git process's `index.lock` is tried this many times, this far apart. */
export const GIT_LOCK_ATTEMPTS = 3
export const GIT_LOCK_RETRY_MS = 300

/** Debug stream tags. */
export const PULL_TAG = 'git.pull'
export const COMMIT_TAG = 'git.commit'

/**
 * The daemon's commit trailers (spec "Commit and agent conventions"): it
 * names itself as the agent; it is no model, so `Model: none` — which also
 * tells `mesh validate --commits` that no co-author line is due.
 */
export const DAEMON_AGENT = 'daemon'
export const DAEMON_MODEL = 'none'
/** Conventional Commit type of the daemon's rewrites: project bookkeeping. */
export const DAEMON_COMMIT_TYPE = 'chore'
