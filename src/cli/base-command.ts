import {Command} from '@oclif/core'
import {isMeshError} from '../lib/errors.js'

/** Exit codes every mesh command shares (documented in docs/cli.md). */
export const EXIT = {ok: 0, failure: 1, usage: 2} as const

/**
 * Base of every mesh command: `--json` on every command (oclif's json flag:
 * the return value of run() is printed as JSON), and MeshErrors shown as one
 * clear line (or a JSON error object under --json) with a non-zero exit,
 * never a stack trace.
 */
export abstract class MeshCommand extends Command {
  static override enableJsonFlag = true

  protected override async catch(error: Error & {exitCode?: number; oclif?: {exit?: number}}): Promise<unknown> {
    if (isMeshError(error)) {
      const exit = error.kind === 'invalid' && error.code.startsWith('usage') ? EXIT.usage : EXIT.failure
      if (this.jsonEnabled()) {
        this.logJson({error: {code: error.code, message: error.message, ...(error.field ? {field: error.field} : {})}})
        this.exit(exit)
      }
      this.error(error.message, {code: error.code, exit})
    }
    return super.catch(error)
  }
}
