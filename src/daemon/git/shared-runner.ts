/**
 * One line of git work per daemon: the git area registers its runner here,
 * so commits made for a team member (src/daemon/chat/resolution/) wait their
 * turn behind the area's pulls and commits instead of racing them for the
 * index. Without a git area (a test, an embedder's daemon) a runner is made
 * for the one call.
 */
import type {SimpleGit} from 'simple-git'
import type {DaemonContext} from '../context.js'
import {GIT_TIMEOUT_MS} from './constants.js'
import {createGitRunner, type GitRunner} from './runner.js'

const runners = new WeakMap<DaemonContext, GitRunner>()

/** The git area's runner becomes the context's; the returned function takes it back. */
export function registerGitRunner(context: DaemonContext, runner: GitRunner): () => void {
  runners.set(context, runner)
  return () => {
    if (runners.get(context) === runner) runners.delete(context)
  }
}

/** Runs `work` on the context's runner, after the git work queued before it; or on a runner of its own. */
export async function withGit<T>(context: DaemonContext, work: (git: SimpleGit) => Promise<T>): Promise<T> {
  const shared = runners.get(context)
  if (shared) return shared.serial(work)
  const own = createGitRunner({root: context.root, timeoutMs: GIT_TIMEOUT_MS})
  try {
    return await own.serial(work)
  } finally {
    await own.close()
  }
}
