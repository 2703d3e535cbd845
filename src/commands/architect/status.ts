import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {ArchitectStatus} from '../../daemon/architect/wire.js'

export default class ArchitectStatusCommand extends MeshCommand {
  static override description = `Show the architect's passes: the one under way, the last one's \`decisions:\` line, and what is dispatchable now, in the order a pass gets it.

Also whether automatic passes are on (architect.auto in cluster.yaml) and when a deferred wake is due. With --json, the daemon's answer ({auto, min_interval_seconds, conv, busy, pass, last, dispatchable, drafts, waiting, next_wake_at}). Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> architect status', "<%= config.bin %> architect status --json | jq -r '.last.decisions'"]

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(ArchitectStatusCommand)
    const [{connectDaemon}, {statusLines}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/architect-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const status = await daemon.call<ArchitectStatus>('GET', '/architect')
    if (!this.jsonEnabled()) for (const line of statusLines(status)) this.log(line)
    return status
  }
}
