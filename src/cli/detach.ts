/**
 * `mesh serve --detach`: starts the daemon as a background process of its
 * own (no terminal, output to `.mesh/.runtime/daemon.log`) and returns once
 * its /health answers, or fails with the daemon's own message, whole
 * (src/protocol/detached-start.ts).
 */
import {spawn} from 'node:child_process'
import {setTimeout as sleep} from 'node:timers/promises'
import {fileURLToPath} from 'node:url'
import {locateDaemon} from '../client/daemon/locate.js'
import {assertRealMeshFolder} from '../daemon/project-files.js'
import {openContainedForWriting, readContainedText} from '../lib/contained-files.js'
import {MeshError} from '../lib/errors.js'
import {DETACHED_ENV, startFailureOf} from '../protocol/detached-start.js'
import {RUNTIME_DIR} from '../protocol/daemon.js'
import {meshPath} from '../standard/project/project-root.js'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
export const DETACH_LOG = `${RUNTIME_DIR}/daemon.log`
/** How long a detached start may take to answer /health before it counts as failed. */
const START_TIMEOUT_MS = 15_000
const POLL_MS = 50

export interface Detached {
  url: string
  pid: number
  /** True when a daemon already served the project (nothing was started). */
  already: boolean
  /** What its /health warns about (printed with the start line). */
  warnings: string[]
}

/** The warnings of a daemon's /health when it answers, else null. */
async function healthAnswers(url: string): Promise<string[] | null> {
  try {
    const response = await fetch(`${url}/health`, {signal: AbortSignal.timeout(1000)})
    if (!response.ok) return null
    const body = (await response.json().catch(() => ({}))) as {warnings?: unknown}
    return Array.isArray(body.warnings) ? body.warnings.filter((warning): warning is string => typeof warning === 'string') : []
  } catch {
    return null
  }
}

export async function detachDaemon(options: {root: string; port?: number; logLevel: string; /** Flags passed on as given (the chat limits). */ extraArgs?: string[]}): Promise<Detached> {
  const found = await locateDaemon(options.root)
  if (found.state === 'running') {
    const warnings = await healthAnswers(found.url)
    if (warnings) return {url: found.url, pid: found.runtime.pid, already: true, warnings}
  }
  // The log is opened without following a link (issue 18): a linked .mesh, .runtime/ or daemon.log is refused.
  await assertRealMeshFolder(options.root)
  const logPath = meshPath(options.root, DETACH_LOG)
  const log = await openContainedForWriting(meshPath(options.root), DETACH_LOG, {mode: 0o600})
  const args = [BIN, 'serve', '--dir', options.root, '--log-level', options.logLevel, ...(options.port !== undefined ? ['--port', String(options.port)] : []), ...(options.extraArgs ?? [])]
  const child = spawn(process.execPath, args, {detached: true, stdio: ['ignore', log.fd, log.fd], env: {...process.env, [DETACHED_ENV]: '1'}})
  await log.close()
  let exited: number | null = null
  child.once('exit', (code) => (exited = code ?? 1))
  child.unref()
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (exited !== null) break
    const now = await locateDaemon(options.root)
    if (now.state === 'running' && now.runtime.pid === child.pid) {
      const warnings = await healthAnswers(now.url)
      if (warnings) return {url: now.url, pid: child.pid, already: false, warnings}
    }
    await sleep(POLL_MS)
  }
  if (exited === null) child.kill('SIGTERM')
  const output = (await readContainedText(meshPath(options.root), DETACH_LOG).catch(() => null)) ?? ''
  const failure = startFailureOf(output)
  const said = failure ? `: ${failure.message} (${failure.code}; log: ${logPath})` : exited === null ? ` within ${START_TIMEOUT_MS / 1000} s (log: ${logPath})` : `: ${lastLines(output)} (log: ${logPath})`
  throw new MeshError('unavailable', 'daemon_start_failed', `The daemon did not start${said}`)
}

/** A daemon that died without its failure line (a crash, a signal): its last lines, without oclif's ` › ` margins. */
const lastLines = (output: string) =>
  output
    .split('\n')
    .map((line) => line.replace(/^\s*›\s*/, '').trim())
    .filter(Boolean)
    .slice(-3)
    .join(' ') || 'it printed nothing'
