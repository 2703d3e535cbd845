/**
 * Helpers of the cluster CLI tests: the real relay served in-process on
 * port 0, and the built binary spawned with its stdout read as lines.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {createLocalBus} from '../../../src/bus/index.js'
import {createMemoryClusterStore, createRelay} from '../../../src/cluster/index.js'
import {serve, type HostedServer} from '../../../src/http/index.js'
import {silentLogger} from '../../../src/lib/log.js'

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The real relay on a free port; `stop()` closes its sockets with `server_shutdown`. */
export async function startRelay(port = 0): Promise<HostedServer> {
  const bus = createLocalBus()
  const relay = createRelay({store: createMemoryClusterStore(), bus, logger: silentLogger, publicUrl: 'http://127.0.0.1'})
  return serve({services: [relay], logger: silentLogger, port})
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams
  /** Resolves with the next stdout line (waits for it). */
  nextLine(): Promise<string>
  /** Resolves with the next stdout line parsed as JSON. */
  nextJson(): Promise<Record<string, any>>
  /** Everything written to stderr so far. */
  stderr(): string
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>
}

/** Spawns `node bin/run.js …args` with MESH_RELAY set; stdout is read line by line. */
export function mesh(args: string[], env: Record<string, string> = {}): Spawned {
  const child = spawn(process.execPath, ['bin/run.js', ...args], {cwd: REPO_ROOT, env: {...process.env, CI: 'true', NO_COLOR: '1', ...env}})
  const lines: string[] = []
  const waiting: ((line: string) => void)[] = []
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
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const nextLine = () => {
    const line = lines.shift()
    if (line !== undefined) return Promise.resolve(line)
    return new Promise<string>((resolve, reject) => {
      waiting.push(resolve)
      exited.then(() => reject(new Error(`process exited while a line was awaited; stderr: ${errors}`)))
    })
  }
  return {child, nextLine, nextJson: async () => JSON.parse(await nextLine()), stderr: () => errors, exited}
}

/** Runs a command to the end: exit code, stdout, stderr. */
export async function meshRun(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['bin/run.js', ...args], {cwd: REPO_ROOT, env: {...process.env, CI: 'true', NO_COLOR: '1', ...env}})
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdin.end()
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return {code, stdout, stderr}
}
