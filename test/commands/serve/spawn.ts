/** Spawns the built CLI's `serve registry` or `serve relay` as an operator runs it and reads its stdout line by line. */
import {spawn, type ChildProcess} from 'node:child_process'
import {once} from 'node:events'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

export const BIN = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'run.js')
export const SERVICES = ['registry', 'relay'] as const
export type Service = (typeof SERVICES)[number]

/** Env without the MESH_* settings of whoever runs the tests, so defaults are the defaults. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MESH_')))
  return {...env, MESH_LOG_LEVEL: 'warn', ...extra}
}

export interface RunningServer {
  child: ChildProcess
  /** The URL of the start line. */
  url: string
  /** Every stdout line so far. */
  lines: string[]
  stderr: () => string
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>
  /** Resolves once stdout has `count` lines. */
  nextLine(count: number): Promise<string>
}

export async function startServer(service: Service, args: string[], options: {env?: NodeJS.ProcessEnv; cwd?: string} = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, [BIN, 'serve', service, ...args], {env: cleanEnv(options.env), cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe']})
  let err = ''
  child.stderr!.on('data', (chunk) => (err += chunk))
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string)
  const lines: string[] = []
  const waiters: Array<{count: number; resolve: (line: string) => void}> = []
  createInterface({input: child.stdout!}).on('line', (line) => {
    lines.push(line)
    for (const waiter of waiters.filter((w) => lines.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(lines[waiter.count - 1])
    }
  })
  const nextLine = (count: number) =>
    lines.length >= count
      ? Promise.resolve(lines[count - 1])
      : new Promise<string>((resolve, reject) => {
          waiters.push({count, resolve})
          void exited.then((code) => setImmediate(() => lines.length < count && reject(new Error(`exited with ${code} after ${lines.length} lines; stderr: ${err}`))))
        })
  const first = await nextLine(1)
  const url = /listening on (http:\/\/\S+)/.exec(first)?.[1] ?? (JSON.parse(first) as {url: string}).url
  return {child, url, lines, stderr: () => err, exited, nextLine}
}

/** Runs the built CLI to completion. */
export async function runCli(args: string[], options: {env?: NodeJS.ProcessEnv; cwd?: string} = {}): Promise<{code: number; stdout: string; stderr: string}> {
  const child = spawn(process.execPath, [BIN, ...args], {env: cleanEnv(options.env), cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const [code] = await once(child, 'exit')
  return {code: code as number, stdout, stderr}
}
