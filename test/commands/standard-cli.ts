import {spawn} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** The built CLI (reads dist/ and oclif.manifest.json: build first). */
export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'run.js')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
  /** stderr as one line: oclif wraps error messages at 80 columns behind " ›   ". */
  errorText: string
}

/**
 * Runs `node bin/run.js ...args` in `cwd` with stdin closed (or fed `input`),
 * never a TTY, and resolves when it exits.
 */
export function mesh(args: string[], options: {cwd?: string; env?: NodeJS.ProcessEnv; input?: string} = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: {...process.env, NO_COLOR: '1', MESH_STANDARD_URL: '', ...options.env},
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += String(chunk)))
    child.stderr.on('data', (chunk) => (stderr += String(chunk)))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr, errorText: stderr.replace(/\s*›\s+/g, ' ').replace(/\s+/g, ' ').trim()}))
    child.stdin.end(options.input ?? '')
  })
}

/** Parses stdout as JSON, with the output in the error when it is not. */
export function json<T = any>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`)
  }
}
