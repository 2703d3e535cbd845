/**
 * Runs one turn's client process: spawns it in its own process group, writes
 * the prompt to stdin, hands each stdout line over as it comes, and ends with
 * how it ended. A turn that outlives the timeout, or prints more than its
 * byte limit (MAX_TURN_OUTPUT_BYTES unless the request says otherwise), is
 * killed (SIGTERM to the group, SIGKILL after
 * KILL_GRACE_MS) and ends `failed`; so does one that cannot start or exits
 * non-zero. Nothing here throws: every ending is a RunOutcome.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {KILL_GRACE_MS, MAX_TURN_OUTPUT_BYTES, STDERR_TAIL_BYTES} from './constants.js'
import {splitLines, type SplitOptions} from './output-lines.js'
import type {TurnFailure} from './types.js'

export interface RunRequest {
  argv: string[]
  stdin: string | null
  cwd: string
  env: Record<string, string>
  timeoutMs: number
  onLine(line: string): void
  /** How stdout is cut into lines (a structured stream: raw JSON lines, longer ones allowed). */
  split?: SplitOptions
  /** Raw stdout bytes past which the turn is killed (`output_too_large`); default MAX_TURN_OUTPUT_BYTES. */
  maxBytes?: number
}

export interface RunOutcome {
  status: 'done' | 'failed'
  reason?: TurnFailure
  exit_code: number | null
  signal: NodeJS.Signals | null
  /** Why it failed, in a sentence (stderr's tail, the spawn error, the timeout). */
  detail?: string
}

export interface RunningTurn {
  done: Promise<RunOutcome>
  /** Stops the turn now (daemon shutdown); it ends `failed` with `reason`. */
  kill(reason: TurnFailure): void
  pid: number | undefined
}

/** The detail of a turn stopped from outside (issue 19: `mesh ask` says the turn was stopped, not that it broke). */
const STOPPED_WHY: Partial<Record<TurnFailure, string>> = {
  shutdown: 'the daemon stopped; its client was stopped with it',
  cancelled: 'cancelled by the operator; its client was stopped',
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  // Signalled until 'close' (which clears the timers): a leader that exited may leave tools in its group
  // holding the output pipes, and they go too (issue 19: a cancelled turn leaves nothing running).
  if (child.pid === undefined) return
  try {
    // The client may have children of its own (a CLI running tools): the whole group goes.
    process.kill(-child.pid, signal)
  } catch {
    child.kill(signal)
  }
}

export function runTurnProcess(request: RunRequest): RunningTurn {
  let child: ChildProcess
  try {
    child = spawn(request.argv[0], request.argv.slice(1), {cwd: request.cwd, env: request.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true})
  } catch (error) {
    return {done: Promise.resolve({status: 'failed', reason: 'spawn', exit_code: null, signal: null, detail: (error as Error).message}), kill() {}, pid: undefined}
  }
  let killedFor: TurnFailure | null = null
  let outputBytes = 0
  let stderrTail = ''
  let graceTimer: NodeJS.Timeout | undefined
  const kill = (reason: TurnFailure) => {
    if (killedFor) return
    killedFor = reason
    killGroup(child, 'SIGTERM')
    graceTimer = setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS)
    graceTimer.unref()
  }
  const timeout = setTimeout(() => kill('timeout'), request.timeoutMs)
  timeout.unref()

  const maxBytes = request.maxBytes ?? MAX_TURN_OUTPUT_BYTES
  const lines = splitLines(request.onLine, request.split)
  child.stdout!.on('data', (chunk: Buffer) => {
    if (killedFor) return
    outputBytes += chunk.length
    if (outputBytes > maxBytes) return kill('output_too_large')
    lines.push(chunk)
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES)
  })
  // A client that exits without reading its stdin must not crash the daemon with EPIPE.
  child.stdin!.on('error', () => {})
  child.stdin!.end(request.stdin ?? undefined)

  const done = new Promise<RunOutcome>((resolve) => {
    let settled = false
    const settle = (outcome: RunOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timeout)
      if (graceTimer) clearTimeout(graceTimer)
      resolve(outcome)
    }
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Only a process that never started ends here; later errors are followed by 'close'.
      if (child.pid !== undefined) return
      settle({status: 'failed', reason: 'spawn', exit_code: null, signal: null, detail: error.code === 'ENOENT' ? `${request.argv[0]} is not installed or not on PATH` : error.message})
    })
    child.on('close', (code, signal) => {
      lines.end()
      const stderr = stderrTail.trim().split('\n').slice(-3).join(' | ')
      if (killedFor) {
        const why = killedFor === 'timeout' ? `no answer within ${Math.round(request.timeoutMs / 1000)} s; killed` : killedFor === 'output_too_large' ? `its output passed the limit (${MAX_TURN_OUTPUT_BYTES} bytes kept); killed` : (STOPPED_WHY[killedFor] ?? `stopped (${killedFor})`)
        settle({status: 'failed', reason: killedFor, exit_code: code, signal, detail: why})
      } else if (code === 0) {
        settle({status: 'done', exit_code: 0, signal: null})
      } else if (signal) {
        settle({status: 'failed', reason: 'killed', exit_code: null, signal, detail: `killed by ${signal}${stderr ? `: ${stderr}` : ''}`})
      } else {
        settle({status: 'failed', reason: 'exit', exit_code: code, signal: null, detail: `exited with ${code}${stderr ? `: ${stderr}` : ''}`})
      }
    })
  })
  return {done, kill, pid: child.pid}
}
