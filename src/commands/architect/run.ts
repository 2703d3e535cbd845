import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {PassView} from '../../daemon/architect/wire.js'

export default class ArchitectRun extends MeshCommand {
  static override description = `Start an architect pass: the coordinating architect is handed the dispatchable tasks, in priority order, and works through them by delegating.

The pass runs in the conversation arch-pass and ends with one \`decisions:\` line (dispatched, deferred, drafts skipped, and why): \`mesh architect status\` shows it, \`mesh chat show arch-pass\` reads the pass back. Refused (exit 1) while the architect is busy (architect_busy), when nothing is dispatchable (nothing_dispatchable), while the context tree is over its budget (context_over_budget) or the day's budget is spent (budget_exhausted). Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> architect run', '<%= config.bin %> architect run --json | jq -r .pass_id']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(ArchitectRun)
    const [{connectDaemon}, {passLines}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/architect-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const pass = await daemon.call<PassView>('POST', '/architect/run')
    if (!this.jsonEnabled()) {
      for (const line of passLines(pass)) this.log(line)
      this.log(`Follow it with \`mesh chat show ${pass.conv}\`; \`mesh architect stop\` stops it.`)
    }
    return pass
  }
}
