/**
 * The git area (docs/daemon.md, Git): with cluster.yaml `git.auto_pull`
 * (default true) it fast-forwards the checked-out branch at start and every
 * few minutes, never over local changes; with `git.auto_commit` (default
 * false) it commits the daemon's own rewrites of committed `.mesh/` files.
 * Whatever stands in the way is reported — debug stream `git.pull` /
 * `git.commit`, a line in /health `warnings[]` — never forced.
 */
import {DENY_LIST} from '../../standard/constants.js'
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import type {WrittenFile} from '../project-writer.js'
import {commitWrites, type CommitOutcome} from './commit.js'
import {COMMIT_TAG, GIT_COMMIT_WINDOW_MS, GIT_PULL_INTERVAL_MS, GIT_TIMEOUT_MS, PULL_TAG} from './constants.js'
import {taskIdOf, type CommittedWrite} from './message.js'
import {BOOKKEEPING_REASONS} from '../tasks/constants.js'
import {pullFastForward, type PullOutcome} from './pull.js'
import {createGitRunner} from './runner.js'
import {registerGitRunner} from './shared-runner.js'

export {commitMessage, scopeOf, taskIdOf, type CommittedWrite} from './message.js'
export type {CommitOutcome} from './commit.js'
export {commitPaths} from './commit.js'
export {withGit} from './shared-runner.js'
export type {PullOutcome} from './pull.js'

export interface GitAreaOptions {
  /** Between two pulls (default 5 minutes). */
  pullIntervalMs?: number
  /** A git command silent this long is killed (default 15 s). */
  timeoutMs?: number
  /** Writes within this window go into one commit (default 500 ms). */
  commitWindowMs?: number
  /** The environment git runs with (default process.env). */
  env?: NodeJS.ProcessEnv
}

export interface GitArea extends DaemonArea {
  /** The git area knows its warnings at once (the last pull's and commit's). */
  warnings(): string[]
  /** One pull now (queued behind any running git work); null when auto_pull is off or the daemon stops. */
  pullNow(): Promise<PullOutcome | null>
  /** Commits what is waiting in the batch window now; null when nothing waits. */
  flushCommits(): Promise<CommitOutcome | null>
}

/**
 * The tasks a daemon commit did work for: the task files in it whose writes
 * were more than bookkeeping (recording an earlier commit's SHA, archiving) —
 * the follow-up commit of a record is not recorded in turn, or each record
 * would make another commit for ever (docs/daemon.md, Task bookkeeping).
 */
function tasksWorkedOn(files: string[], writes: CommittedWrite[]): string[] {
  const committed = new Set(files)
  const ids = writes
    .filter((write) => committed.has(`.mesh/${write.path}`) && write.reason.split(', ').some((reason) => !BOOKKEEPING_REASONS.includes(reason)))
    .map((write) => taskIdOf(write.path))
  return [...new Set(ids.filter((id): id is string => id !== null))]
}

/** spec deny-list: paths relative to the project root that are never committed. */
export const isDenied = (repoPath: string) => DENY_LIST.some((entry) => (entry.endsWith('/') ? repoPath.startsWith(entry) : repoPath === entry))

export function gitArea(context: DaemonContext, options: GitAreaOptions = {}): GitArea {
  const pullIntervalMs = options.pullIntervalMs ?? GIT_PULL_INTERVAL_MS
  const commitWindowMs = options.commitWindowMs ?? GIT_COMMIT_WINDOW_MS
  const runner = createGitRunner({root: context.root, timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS, env: options.env})
  let pullWarning: string | null = null
  let commitWarning: string | null = null
  let lastPullMessage: string | null = null
  let pulling: Promise<PullOutcome | null> | null = null
  let closing = false
  let interval: NodeJS.Timeout | undefined
  let batchTimer: NodeJS.Timeout | undefined
  let unsubscribe: (() => void) | undefined
  // Agent commits (chat resolution) run on this runner too: one git operation at a time.
  const unregister = registerGitRunner(context, runner)
  const pending = new Map<string, Set<string>>()

  const reportPull = (outcome: PullOutcome) => {
    if (closing) return
    if (outcome.state === 'blocked') {
      // A repository with no remote is a local one, not a fault: nothing to pull, no /health warning (issue 23: a fresh project is calm).
      const calm = outcome.reason === 'no_remote'
      pullWarning = calm ? null : outcome.message
      // The same reason every few minutes is a debug line, a new one a warning.
      const lvl = outcome.message === lastPullMessage ? 'debug' : calm ? 'info' : 'warn'
      lastPullMessage = outcome.message
      context.debug.log({lvl, tag: PULL_TAG, msg: `not pulled: ${outcome.message}`, data: {reason: outcome.reason}})
      return
    }
    pullWarning = null
    lastPullMessage = null
    if (outcome.state === 'pulled') {
      const {branch, upstream, from, to, commits} = outcome
      context.debug.log({lvl: 'info', tag: PULL_TAG, msg: `fast-forwarded ${branch} by ${commits} commit(s) from ${upstream}`, data: {from, to}})
      context.events.publish('git.pulled', {branch, upstream, from, to, commits})
    } else {
      context.debug.log({lvl: 'debug', tag: PULL_TAG, msg: `${outcome.branch} is up to date with ${outcome.upstream}${outcome.ahead ? ` (${outcome.ahead} local commit(s) not pushed)` : ''}`})
    }
  }

  const pullNow = (localChecked?: () => void): Promise<PullOutcome | null> => {
    if (closing || !context.settings().git.autoPull) return Promise.resolve(null)
    // A pull still running (a slow fetch) is the answer for a tick that comes meanwhile.
    pulling ??= runner
      .serial(async (git) => {
        const outcome = await pullFastForward(git, localChecked)
        reportPull(outcome)
        return outcome
      }, {interruptible: true})
      .catch(() => null)
      .finally(() => (pulling = null))
    return pulling
  }

  const reportCommit = (outcome: CommitOutcome, writes: CommittedWrite[]) => {
    if (outcome.state === 'committed') {
      commitWarning = null
      context.debug.log({lvl: 'info', tag: COMMIT_TAG, msg: `committed ${outcome.sha.slice(0, 12)} ${outcome.subject}`, data: {files: outcome.files}})
      context.events.publish('git.committed', {sha: outcome.sha, subject: outcome.subject, files: outcome.files, tasks: tasksWorkedOn(outcome.files, writes)})
    } else if (outcome.state === 'nothing') {
      context.debug.log({lvl: 'debug', tag: COMMIT_TAG, msg: `nothing to commit: ${outcome.message}`, data: {files: writes.map((write) => write.path)}})
    } else {
      commitWarning = `${outcome.message} (${writes.map((write) => `.mesh/${write.path}`).join(', ')} left uncommitted)`
      context.debug.log({lvl: 'warn', tag: COMMIT_TAG, msg: `not committed: ${outcome.message}`, data: {files: writes.map((write) => write.path)}})
    }
  }

  const flushCommits = (): Promise<CommitOutcome | null> => {
    clearTimeout(batchTimer)
    batchTimer = undefined
    if (pending.size === 0) return Promise.resolve(null)
    const writes: CommittedWrite[] = [...pending].map(([path, reasons]) => ({path, reason: [...reasons].join(', ')}))
    pending.clear()
    return runner
      .serial(async (git) => {
        const outcome = await commitWrites(git, writes)
        reportCommit(outcome, writes)
        return outcome
      })
      .catch(() => null)
  }

  const onWrite = (written: WrittenFile) => {
    if (closing || !context.settings().git.autoCommit) return
    if (isDenied(`.mesh/${written.path}`)) {
      context.debug.log({lvl: 'debug', tag: COMMIT_TAG, msg: `.mesh/${written.path} is on the deny-list: not committed`})
      return
    }
    const reasons = pending.get(written.path) ?? new Set<string>()
    pending.set(written.path, reasons.add(written.reason))
    batchTimer ??= setTimeout(() => void flushCommits(), commitWindowMs)
  }

  return {
    name: 'git',
    routes: [],
    pullNow: () => pullNow(),
    flushCommits,
    async start() {
      unsubscribe = context.writer.onWrite(onWrite)
      if (!context.settings().git.autoPull) context.debug.log({lvl: 'debug', tag: PULL_TAG, msg: 'git.auto_pull is off: the daemon does not pull'})
      // Start waits for the local checks (a missing repository is on /health from the first call), never for the network.
      await new Promise<void>((resolve) => void pullNow(resolve).finally(resolve))
      interval = setInterval(() => void pullNow(), pullIntervalMs)
      interval.unref()
    },
    async close() {
      clearInterval(interval)
      unsubscribe?.()
      unregister()
      // A write just before the stop is still committed; a running fetch is not waited for.
      const last = flushCommits()
      closing = true
      await runner.close()
      await last
    },
    warnings() {
      const git = context.settings().git
      return [...(git.autoPull && pullWarning ? [`git pull: ${pullWarning}`] : []), ...(git.autoCommit && commitWarning ? [`git commit: ${commitWarning}`] : [])]
    },
  }
}
