/** Spawns the built CLI's `serve registry` and waits for its start line. */
import {spawn, type ChildProcess} from 'node:child_process'
import {once} from 'node:events'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const BIN = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'bin', 'run.js')

export interface RunningRegistry {
  child: ChildProcess
  url: string
  stderr: () => string
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>
}

export async function startRegistry(dataDir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningRegistry> {
  const port = extra.includes('--port') ? [] : ['--port', '0']
  const child = spawn(process.execPath, [BIN, 'serve', 'registry', ...port, '--data', dataDir, '--log-level', 'warn', ...extra], {
    env: {...process.env, ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr!.on('data', (chunk) => (err += chunk))
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string)
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line after 30 s; stderr: ${err}`)), 30_000)
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out) ?? /"url":"(http:[^"]+)"/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before listening; stderr: ${err}`))
    })
  })
  return {child, url, stderr: () => err, exited}
}

/** Runs the built CLI to completion. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<{code: number; stdout: string; stderr: string}> {
  const child = spawn(process.execPath, [BIN, ...args], {env: {...process.env, ...env}, cwd, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const [code] = await once(child, 'exit')
  return {code: code as number, stdout, stderr}
}
