import {Command} from '@oclif/core'
import {isMeshError} from '../lib/errors.js'
import type {CommandOutcome} from './views/outcome.js'

/** oclif's multi-line messages as one line, without its pointer to --help. */
const oneLine = (message: string) =>
  message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('See more help with'))
    .join(' ')

/** Exit codes every mesh command shares (documented in docs/cli.md); `payment`: an agent answered 402 (`mesh call`). */
export const EXIT = {ok: 0, failure: 1, usage: 2, payment: 3} as const

/**
 * Base of every mesh command: `--json` on every command (oclif's json flag:
 * the return value of run() is printed as JSON), and MeshErrors shown as one
 * clear line (or a JSON error object under --json) with a non-zero exit,
 * never a stack trace.
 */
export abstract class MeshCommand extends Command {
  static override enableJsonFlag = true

  /** True for commands whose stdout is a stream of NDJSON events: their --json error is one more line. */
  protected streamsNdjson = false

  /** Prints a view's outcome (./views/): notes on stderr and lines on stdout unless --json; returns the --json result. */
  protected show<T>(outcome: CommandOutcome<T>): T {
    for (const note of outcome.notes) this.logToStderr(note)
    for (const line of outcome.lines) this.log(line)
    if (outcome.exitCode !== undefined) process.exitCode = outcome.exitCode
    return outcome.result
  }

  protected override logJson(json: unknown): void {
    if (this.streamsNdjson) process.stdout.write(JSON.stringify(json) + '\n')
    else super.logJson(json)
  }

  protected override async catch(error: Error & {exitCode?: number; oclif?: {exit?: number}}): Promise<unknown> {
    if (isMeshError(error)) {
      const exit = error.kind === 'invalid' && error.code.startsWith('usage') ? EXIT.usage : EXIT.failure
      if (this.jsonEnabled()) {
        this.logJson({error: {code: error.code, message: error.message, ...(error.field ? {field: error.field} : {})}})
        this.exit(exit)
      }
      this.error(error.message, {code: error.code, exit})
    }
    if (this.jsonEnabled()) {
      // oclif's own errors (flag parsing: exit 2) and anything unexpected: the same one-object shape as a
      // MeshError, never oclif's serialized error with its internals.
      const usage = error.oclif?.exit === EXIT.usage
      const message = oneLine(String(error.message ?? error))
      this.logJson({error: {code: usage ? 'usage_error' : 'internal', message}})
      this.exit(usage ? EXIT.usage : EXIT.failure)
    }
    return super.catch(error)
  }
}
