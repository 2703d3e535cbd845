/**
 * How `mesh serve --detach` and the daemon it starts in the background meet
 * (docs/daemon.md, `--detach`): the starter marks the child's environment,
 * and a child that cannot start prints one JSON line last in its output
 * (`.mesh/.runtime/daemon.log`), which the starter quotes whole — the child's
 * human error is oclif's, wrapped at 80 columns behind ` › `, no message to
 * piece together again. Nothing here imports anything.
 */

/** Set to `1` in the environment of the daemon `--detach` starts; that daemon reads it once and drops it. */
export const DETACHED_ENV = 'MESH_DAEMON_DETACHED'

/** `event` of the line a detached daemon prints when it cannot start. */
export const START_FAILED_EVENT = 'start_failed'

export interface StartFailure {
  code: string
  message: string
}

/** The line a detached daemon prints when it cannot start (with its newline). */
export function startFailedLine(failure: StartFailure): string {
  return JSON.stringify({event: START_FAILED_EVENT, error: {code: failure.code, message: failure.message}}) + '\n'
}

/** The last start failure in a detached daemon's output, or null when it printed none. */
export function startFailureOf(output: string): StartFailure | null {
  const lines = output.split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim()
    if (!line.startsWith('{')) continue
    try {
      const parsed = JSON.parse(line) as {event?: unknown; error?: {code?: unknown; message?: unknown}}
      if (parsed.event === START_FAILED_EVENT && typeof parsed.error?.code === 'string' && typeof parsed.error.message === 'string') {
        return {code: parsed.error.code, message: parsed.error.message}
      }
    } catch {
      // Not a JSON line: the daemon's other output.
    }
  }
  return null
}
