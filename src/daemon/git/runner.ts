/**
 * How the daemon runs git: one simple-git instance on the project root with
 * a timeout (a command that prints nothing for `timeoutMs` is killed, so an
 * offline remote cannot hang the daemon), no prompts (the daemon has no one
 * to ask for a password), and one operation at a time (a pull and a commit
 * never race for the index).
 */
import {simpleGit, type SimpleGit} from 'simple-git'

export interface GitRunner {
  /**
   * Runs `work` after every earlier one has settled; a failure does not block
   * the next. An `interruptible` one (a pull) is killed at once by close().
   */
  serial<T>(work: (git: SimpleGit) => Promise<T>, options?: {interruptible?: boolean}): Promise<T>
  /** Kills an interruptible command, lets queued work (a last commit) finish, then refuses more. */
  close(): Promise<void>
}

export interface GitRunnerOptions {
  root: string
  timeoutMs: number
  env?: NodeJS.ProcessEnv
}

/**
 * The environment git runs with: the user's own (their ssh agent, proxy,
 * credential helpers), with prompts and optional index locks turned off. SSH gets BatchMode unless
 * the user chose an ssh command, so a passphrase prompt never lands on the
 * terminal of a foreground `mesh serve`.
 */
export function gitEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  out.GIT_TERMINAL_PROMPT = '0'
  // A status of the daemon must not take index.lock from under the user's own git.
  out.GIT_OPTIONAL_LOCKS = '0'
  if (!env.GIT_SSH_COMMAND && !env.GIT_SSH) out.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes'
  return out
}

// simple-git refuses some variables of the environment (EDITOR, PAGER,
// GIT_SSH_COMMAND…) as attack vectors of untrusted arguments. The environment
// here is the user's own and every argument is the daemon's, so those
// variables are passed through rather than failing every call.
const USER_ENVIRONMENT = {
  allowUnsafeEditor: true,
  allowUnsafePager: true,
  allowUnsafeSshCommand: true,
  allowUnsafeAskPass: true,
  allowUnsafeConfigPaths: true,
  allowUnsafeConfigEnvCount: true,
  allowUnsafeGitProxy: true,
  allowUnsafeTemplateDir: true,
  allowUnsafeDiffExternal: true,
}

export function createGitRunner(options: GitRunnerOptions): GitRunner {
  const env = gitEnvironment(options.env)
  // simple-git 4 refuses any GIT_* (or EDITOR, PAGER…) variable given to .env() that allowEnvironment does not name:
  // every variable here is the user's own or the daemon's, so all are named.
  const allowEnvironment = Object.keys(env)
  const make = (signal: AbortSignal) => simpleGit({baseDir: options.root, timeout: {block: options.timeoutMs}, abort: signal, unsafe: USER_ENVIRONMENT, allowEnvironment}).env(env)
  const interrupt = new AbortController()
  const stop = new AbortController()
  const interruptible = make(interrupt.signal)
  const git = make(stop.signal)
  let tail: Promise<unknown> = Promise.resolve()
  return {
    serial(work, workOptions = {}) {
      const result = tail.then(() => {
        if (stop.signal.aborted || (workOptions.interruptible && interrupt.signal.aborted)) throw new Error('the daemon is stopping')
        return work(workOptions.interruptible ? interruptible : git)
      })
      tail = result.catch(() => {})
      return result
    },
    async close() {
      interrupt.abort()
      await tail
      stop.abort()
    },
  }
}

/** The first meaningful line of a git failure, without `fatal:`/`error:` (for warnings and the debug stream). */
export function gitReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/block timeout reached/.test(message)) return 'timed out'
  const line = message
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text !== '' && !/^hint:/.test(text))
  return (line ?? 'git failed').replace(/^(fatal|error):\s*/, '')
}
