/**
 * Commits the daemon's own rewrites (and, through `commitPaths`, the files an
 * agent names) and nothing else: each file is staged
 * alone and committed with a pathspec (`git commit -- <files>`, git's
 * `--only`), so whatever else the user has staged stays staged and out of
 * the commit (docs/daemon.md, Git).
 */
import type {SimpleGit} from 'simple-git'
import {GIT_LOCK_ATTEMPTS, GIT_LOCK_RETRY_MS} from './constants.js'
import {commitMessage, type CommittedWrite} from './message.js'
import {gitReason} from './runner.js'

export type CommitOutcome =
  | {state: 'committed'; sha: string; subject: string; files: string[]}
  | {state: 'nothing'; message: string}
  | {state: 'failed'; message: string}

/** The daemon's pathspecs are file names, never globs: `[x].md` means that file. */
const literal = (paths: string[]) => paths.map((path) => `:(literal)${path}`)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function commitFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/Please tell me who you are|Author identity unknown|empty ident/i.test(message)) return 'git has no identity here: set user.name and user.email'
  return gitReason(error)
}

/** `writes` are `.mesh/`-relative; paths given to git are relative to the project root (its cwd). */
export async function commitWrites(git: SimpleGit, writes: CommittedWrite[]): Promise<CommitOutcome> {
  const byPath = new Map(writes.map((write) => [`.mesh/${write.path}`, write]))
  return commitPaths(git, [...byPath.keys()], (changed) => commitMessage(changed.map((path) => byPath.get(path) ?? {path: path.replace(/^\.mesh\//, ''), reason: 'write'})))
}

/**
 * Commits exactly `paths` (relative to the repository root): the ones
 * .gitignore keeps out are dropped, each other one is staged alone, and the
 * commit takes only those that differ from HEAD, by pathspec — so whatever
 * else is staged stays staged and out of the commit. `messageOf` is given
 * the changed paths. Shared by the daemon's own commits and agent commits
 * (src/daemon/chat/resolution/agent-commit.ts).
 */
export async function commitPaths(git: SimpleGit, paths: string[], messageOf: (changed: string[]) => {subject: string; message: string}): Promise<CommitOutcome> {
  let isRepo: boolean
  try {
    isRepo = await git.checkIsRepo()
  } catch (error) {
    return {state: 'failed', message: `git could not run: ${gitReason(error)}`}
  }
  if (!isRepo) return {state: 'failed', message: 'the project is not a git repository'}
  try {
    // A file .gitignore keeps out stays out, even when the deny-list misses it.
    const ignored = new Set(await git.checkIgnore(paths))
    const kept = paths.filter((path) => !ignored.has(path))
    if (kept.length === 0) return {state: 'nothing', message: 'every file is ignored by .gitignore'}
    await withLockRetry(() => git.raw(['add', '--', ...literal(kept)]))
    const changed = (await git.raw(['diff', '--cached', '--name-only', '--relative', '--', ...literal(kept)])).split('\n').filter((line) => line.trim() !== '')
    if (changed.length === 0) return {state: 'nothing', message: 'the files equal the last commit'}
    const {subject, message} = messageOf(changed)
    await withLockRetry(() => git.raw(['commit', '--quiet', '-m', message, '--', ...literal(changed)]))
    const sha = (await git.raw(['rev-parse', 'HEAD'])).trim()
    return {state: 'committed', sha, subject, files: changed}
  } catch (error) {
    return {state: 'failed', message: commitFailure(error)}
  }
}

/** Another git process (the user's) may hold index.lock for a moment: wait and try again. */
async function withLockRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (attempt >= GIT_LOCK_ATTEMPTS || !/index\.lock/.test(String(error))) throw error
      await sleep(GIT_LOCK_RETRY_MS * attempt)
    }
  }
}
