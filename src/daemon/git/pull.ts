/**
 * One fast-forward pull of the checked-out branch from its upstream, as
 * `git pull --ff-only` would do it, but never over local changes: anything
 * that stands in the way is an outcome with a reason, never a forced merge
 * and never a throw (docs/daemon.md, Git).
 */
import type {SimpleGit} from 'simple-git'
import {gitReason} from './runner.js'

export type PullBlock =
  | 'git_failed'
  | 'not_a_repository'
  | 'detached_head'
  | 'no_remote'
  | 'no_upstream'
  | 'fetch_failed'
  | 'dirty'
  | 'diverged'
  | 'merge_failed'

export type PullOutcome =
  | {state: 'pulled'; branch: string; upstream: string; from: string; to: string; commits: number}
  | {state: 'up_to_date'; branch: string; upstream: string; ahead: number}
  | {state: 'blocked'; reason: PullBlock; message: string}

const blocked = (reason: PullBlock, message: string): PullOutcome => ({state: 'blocked', reason, message})
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** A command whose failure is an answer (no upstream, detached HEAD): its output, or null. */
const attempt = (git: SimpleGit, args: string[]) =>
  git.raw(args).then(
    (out) => out.trim(),
    () => null,
  )

/** `localChecked` is called once the local checks pass, before the network: the daemon's start waits only that long. */
export async function pullFastForward(git: SimpleGit, localChecked: () => void = () => {}): Promise<PullOutcome> {
  let isRepo: boolean
  try {
    isRepo = await git.checkIsRepo()
  } catch (error) {
    return blocked('git_failed', `git could not run: ${gitReason(error)}`)
  }
  if (!isRepo) return blocked('not_a_repository', 'the project is not a git repository (set git.auto_pull: false in cluster.yaml if it is not meant to be)')
  const branch = await attempt(git, ['symbolic-ref', '--quiet', '--short', 'HEAD'])
  if (!branch) return blocked('detached_head', 'HEAD is detached; the daemon only pulls a checked-out branch')
  const remotes = await git.getRemotes().catch(() => [])
  if (remotes.length === 0) return blocked('no_remote', 'the repository has no remote to pull from')
  const upstream = await attempt(git, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'])
  if (!upstream) return blocked('no_upstream', `branch ${branch} has no upstream (set one with \`git branch -u <remote>/${branch}\`)`)

  localChecked()
  try {
    await git.raw(['fetch', '--quiet'])
  } catch (error) {
    return blocked('fetch_failed', `fetching ${upstream} failed: ${gitReason(error)}`)
  }
  const counts = await attempt(git, ['rev-list', '--left-right', '--count', 'HEAD...@{upstream}'])
  const [ahead, behind] = (counts ?? '').split(/\s+/).map(Number)
  if (!Number.isInteger(ahead) || !Number.isInteger(behind)) return blocked('git_failed', `could not compare ${branch} with ${upstream}`)
  if (behind === 0) return {state: 'up_to_date', branch, upstream, ahead}
  if (ahead > 0) return blocked('diverged', `${branch} and ${upstream} have diverged (${plural(ahead, 'local commit')}, ${plural(behind, 'remote commit')}); merge or rebase by hand`)
  // Untracked files do not count: git itself refuses a merge that would overwrite one.
  const status = await attempt(git, ['status', '--porcelain', '--untracked-files=no'])
  if (status === null) return blocked('git_failed', 'git status failed')
  if (status !== '') return blocked('dirty', `${plural(behind, 'commit')} wait on ${upstream}, but the work tree has uncommitted changes; commit or stash them, then pull`)

  const from = (await attempt(git, ['rev-parse', 'HEAD'])) ?? ''
  try {
    await git.raw(['merge', '--ff-only', '--quiet', '@{upstream}'])
  } catch (error) {
    return blocked('merge_failed', `the fast-forward to ${upstream} failed: ${gitReason(error)}`)
  }
  const to = (await attempt(git, ['rev-parse', 'HEAD'])) ?? ''
  return {state: 'pulled', branch, upstream, from, to, commits: behind}
}
