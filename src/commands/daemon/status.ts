import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class DaemonStatus extends MeshCommand {
  static override description = `Say whether the project's daemon runs, where, and what its /health reports.

Exit 0 when it runs and answers, 1 otherwise (stopped, or left behind by a killed daemon: \`mesh serve\` takes over such files).`

  static override examples = ['<%= config.bin %> daemon status', '<%= config.bin %> daemon status --json']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(DaemonStatus)
    const {daemonStatusView} = await import('../../cli/views/daemon-status.js')
    return this.show(await daemonStatusView(flags))
  }
}

