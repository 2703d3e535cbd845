/**
 * The one way tests run mesh: the built binary (`npm test` builds first)
 * in a child process, never a TTY. `runCli` runs a command to its end;
 * `spawnCli` starts a long-running one (a server, `join`, `--follow`) whose
 * stdout is read line by line; `startServer` starts `mesh serve registry|relay`
 * and waits for its start line. Tests that need a real terminal (script,
 * tmux) run `cliCommandLine(…)` with `cliEnv(…)`.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface CliOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Written to stdin, which is then closed (closed at once without it). */
  input?: string
  /** Node's own flags, before the binary (e.g. `--import` a loader hook). */
  nodeArgs?: string[]
  /** An installed `mesh` executable, run as is (its shebang finds node on PATH), instead of the checkout's bin/run.js. */
  program?: string
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
  /** stderr as one line: oclif wraps error messages at 80 columns behind " ›   ". */
  errorText: string
}

/**
 * The environment of every spawned mesh: the tester's own MESH_* settings
 * dropped (defaults are the defaults), no colour, no standard catch-up calls
 * and no daemon transport over the network (fixture hubs are unreachable),
 * file secrets (CI has no keychain); `env` wins.
 */
export function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MESH_')))
  return {...inherited, CI: 'true', NO_COLOR: '1', MESH_STANDARD_URL: '', MESH_DAEMON_TRANSPORT: 'off', MESH_SECRETS_BACKEND: 'file', XDG_CONFIG_HOME: emptyConfigDir(), ...env}
}

let configDir: string | undefined
/** The tester's own ~/.config/mesh (their clients.yaml, their trust records) stays out of every run: an empty folder instead. */
function emptyConfigDir(): string {
  configDir ??= mkdtempSync(join(tmpdir(), 'mesh-config-'))
  return configDir
}

const argv = (args: string[], nodeArgs: string[] = []) => [...nodeArgs, BIN, ...args]
/** The program and its arguments: the installed `program` when given, else node on the checkout's binary. */
const command = (args: string[], options: Omit<CliOptions, 'input'>): [string, string[]] => (options.program ? [options.program, args] : [process.execPath, argv(args, options.nodeArgs)])

/** `mesh …args` as one shell command line (each word quoted), for a pseudo-terminal (script, tmux). */
export function cliCommandLine(args: string[]): string {
  return [process.execPath, BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
}

/** Runs `mesh …args` to its end. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(...command(args, options), {cwd: options.cwd ?? REPO_ROOT, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe']})
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
  /** Every stdout line so far, in order (reading with nextLine does not remove them). */
  lines: string[]
  /** The next stdout line (waits for it; rejects if the process ends first). */
  nextLine(): Promise<string>
  /** The next stdout line parsed as JSON. */
  nextJson(): Promise<Record<string, any>>
  /** Skips lines until one matches; resolves with it. */
  waitFor(match: RegExp | ((line: string) => boolean)): Promise<string>
  /** Everything written to stderr so far. */
  stderr(): string
  /** Exit code, or the signal's name, once the process ended and its output was read. */
  exited: Promise<number | string>
  /** SIGTERM (or `signal`), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>
}

/** Starts `mesh …args` and reads its stdout as lines; stdin stays open for the test to write. */
export function spawnCli(args: string[], options: Omit<CliOptions, 'input'> = {}): SpawnedCli {
  const child = spawn(...command(args, options), {cwd: options.cwd ?? REPO_ROOT, env: cliEnv(options.env)})
  const history: string[] = []
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
      history.push(line)
      const waiter = waiting.shift()
      if (waiter) waiter(line)
      else lines.push(line)
    }
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk))
  // 'close', not 'exit': by then stdout and stderr are read to their end.
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve((code ?? signal) as number | string)))
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
    lines: history,
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

export const SERVICES = ['registry', 'relay'] as const
export type Service = (typeof SERVICES)[number]

export interface RunningServer extends SpawnedCli {
  /** The URL of the start line. */
  url: string
}

/**
 * Starts `mesh serve <service> …args` (on `--port 0` unless args name a port;
 * log level warn unless env says otherwise) and resolves once its start line
 * is out: `{"event":"listening","url":…}` under --json, `… listening on <url>`
 * without. Rejects, with stderr, if the server exits first.
 */
export async function startServer(service: Service, args: string[], options: Omit<CliOptions, 'input'> = {}): Promise<RunningServer> {
  const port = args.includes('--port') || args.includes('-p') ? [] : ['--port', '0']
  const server = spawnCli(['serve', service, ...port, ...args], {...options, env: {MESH_LOG_LEVEL: 'warn', ...options.env}})
  const url = listeningUrl(await server.waitFor((line) => listeningUrl(line) !== undefined))!
  return {...server, url}
}

/** The URL a server's start line announces; undefined for any other line. */
function listeningUrl(line: string): string | undefined {
  if (!line.startsWith('{')) return /listening on (http:\/\/\S+)/.exec(line)?.[1]
  const event = JSON.parse(line) as {event?: string; url?: string}
  return event.event === 'listening' ? event.url : undefined
}
