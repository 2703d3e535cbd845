/**
 * The one way CLI tests run mesh: the built binary (`npm test` builds first)
 * in a child process, never a TTY. `runCli` runs a command to its end;
 * `spawnCli` starts a long-running one (a server, `join`, `--follow`) whose
 * stdout is read line by line.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface CliOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Written to stdin, which is then closed (closed at once without it). */
  input?: string
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
  /** stderr as one line: oclif wraps error messages at 80 columns behind " ›   ". */
  errorText: string
}

/** No colour, no standard catch-up calls over the network, file secrets (CI has no keychain). */
const baseEnv = (env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({...process.env, CI: 'true', NO_COLOR: '1', MESH_STANDARD_URL: '', MESH_SECRETS_BACKEND: 'file', ...env})

/** Runs `mesh …args` to its end. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {cwd: options.cwd ?? REPO_ROOT, env: baseEnv(options.env), stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr, errorText: stderr.replace(/\s*›\s+/g, ' ').replace(/\s+/g, ' ').trim()}))
    child.stdin.end(options.input ?? '')
  })
}

/** stdout parsed as JSON, with the output in the error when it is not JSON. */
export function json<T = any>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`)
  }
}

export interface SpawnedCli {
  child: ChildProcessWithoutNullStreams
  /** The next stdout line (waits for it; rejects if the process ends first). */
  nextLine(): Promise<string>
  /** The next stdout line parsed as JSON. */
  nextJson(): Promise<Record<string, any>>
  /** Skips lines until one matches; resolves with it. */
  waitFor(match: RegExp | ((line: string) => boolean)): Promise<string>
  /** Everything written to stderr so far. */
  stderr(): string
  /** Exit code, or the signal's name. */
  exited: Promise<number | string>
  /** SIGTERM (or `signal`), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>
}

/** Starts `mesh …args` and reads its stdout as lines; stdin stays open for the test to write. */
export function spawnCli(args: string[], options: Omit<CliOptions, 'input'> = {}): SpawnedCli {
  const child = spawn(process.execPath, [BIN, ...args], {cwd: options.cwd ?? REPO_ROOT, env: baseEnv(options.env)})
  const lines: string[] = []
  const waiting: Array<(line: string) => void> = []
  let buffer = ''
  let errors = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
      const waiter = waiting.shift()
      if (waiter) waiter(line)
      else lines.push(line)
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk))
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve((code ?? signal) as number | string)))
  const nextLine = () => {
    const line = lines.shift()
    if (line !== undefined) return Promise.resolve(line)
    return new Promise<string>((resolve, reject) => {
      waiting.push(resolve)
      void exited.then((code) => reject(new Error(`mesh ${args.join(' ')} exited (${code}) while a line was awaited; stderr: ${errors}`)))
    })
  }
  const waitFor = async (match: RegExp | ((line: string) => boolean)) => {
    const test = typeof match === 'function' ? match : (line: string) => match.test(line)
    for (;;) {
      const line = await nextLine()
      if (test(line)) return line
    }
  }
  return {
    child,
    nextLine,
    nextJson: async () => JSON.parse(await nextLine()),
    waitFor,
    stderr: () => errors,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}
