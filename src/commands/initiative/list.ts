import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {INITIATIVE_STATUSES, listInitiatives} from '../../standard/initiatives/index.js'
import {findProjectRoot} from '../../standard/project/project-root.js'
import {formatTable} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class InitiativeList extends MeshCommand {
  static override description = 'List initiatives with how many of their tasks are done.'

  static override examples = ['<%= config.bin %> initiative list', '<%= config.bin %> initiative list --status active --json']

  static override flags = {
    status: Flags.string({char: 's', description: 'only this status', options: [...INITIATIVE_STATUSES]}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(InitiativeList)
    const initiatives = (await listInitiatives(await findProjectRoot(flags.dir))).filter((item) => flags.status === undefined || item.status === flags.status)
    if (initiatives.length === 0) this.log('No initiatives.')
    else {
      const rows = initiatives.map((item) => [item.id, item.status, item.owner, `${item.done}/${item.tasks.length}`, item.title])
      this.log(formatTable(['ID', 'STATUS', 'OWNER', 'DONE', 'TITLE'], rows))
    }
    return initiatives
  }
}
