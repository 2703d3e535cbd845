import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class DaemonStop extends MeshCommand {
  static override description = `Stop the project's daemon (SIGTERM, then wait for it to remove its runtime file).

A runtime file left by a killed daemon is removed. Stopping a daemon that does not run is not an error.`

  static override examples = ['<%= config.bin %> daemon stop']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(DaemonStop)
    const [{findProjectRoot}, {stopDaemon}] = await Promise.all([import('../../standard/project/project-root.js'), import('../../client/daemon/stop.js')])
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const stopped = await stopDaemon(root)
    if (!this.jsonEnabled()) {
      this.log(stopped.was === 'running' ? `stopped the daemon (pid ${stopped.pid})` : stopped.was === 'stale' ? `removed the runtime file of a daemon that was gone (pid ${stopped.pid})` : 'no daemon was running')
    }
    return stopped
  }
}
