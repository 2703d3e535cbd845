/**
 * Whether git tracks a file of the project (issue 18: a per-machine file
 * that names commands is refused when it is tracked, since every `git pull`
 * would then let whoever can commit choose what this machine runs). Asked of
 * git itself (`git ls-files`), so a file added with `git add -f` despite the
 * ignore line counts. A project that is not a git repository, or a machine
 * without git, has nothing tracked. Read-only and lock-free: it does not wait
 * behind the area's pulls and commits.
 */
import {GIT_TIMEOUT_MS} from './constants.js'

export type Tracked = {tracked: boolean} | {unknown: string}

/** `path` is relative to `root` (the folder holding `.mesh/`, inside the repository or its root). */
export async function isTrackedByGit(root: string, path: string, env?: NodeJS.ProcessEnv): Promise<Tracked> {
  // simple-git is loaded when a file is asked about, not by every reader of the clients files (`mesh team list`).
  const {createGitRunner, gitReason} = await import('./runner.js')
  const runner = createGitRunner({root, timeoutMs: GIT_TIMEOUT_MS, env})
  try {
    const listed = await runner.serial((git) => git.raw(['ls-files', '-z', '--', path]))
    return {tracked: listed.length > 0}
  } catch (error) {
    const message = String((error as Error).message ?? error)
    if (/not a git repository/i.test(message) || /ENOENT/.test(message)) return {tracked: false}
    return {unknown: gitReason(error)}
  } finally {
    await runner.close()
  }
}
