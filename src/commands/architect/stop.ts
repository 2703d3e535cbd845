import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {EndedPass} from '../../daemon/architect/wire.js'

export default class ArchitectStop extends MeshCommand {
  static override description = `Stop the architect pass under way: the architect's running turn is cancelled and the pass ends, stopped, with its \`decisions:\` line.

Briefs the pass already handed out stay open (the teammates go on; \`mesh team requests --cancel <id>\` cancels one). A wake kept for later (tasks that became dispatchable while the architect was busy) is dropped. No pass running is pass_not_running (exit 1). Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> architect stop']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(ArchitectStop)
    const [{connectDaemon}, {endedLines}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/architect-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const ended = await daemon.call<EndedPass>('POST', '/architect/stop')
    if (!this.jsonEnabled()) for (const line of endedLines(ended)) this.log(line)
    return ended
  }
}
