import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class TaskList extends MeshCommand {
  static override description = 'List tasks, filtered by status, module, owner or initiative.'

  static override examples = [
    '<%= config.bin %> task list',
    '<%= config.bin %> task list --status next --status active --module api',
    '<%= config.bin %> task list --initiative onboarding --json',
  ]

  static override flags = {
    status: Flags.string({char: 's', description: 'status (repeatable; an alias word matches its canonical status)', multiple: true}),
    module: Flags.string({char: 'm', description: 'module id'}),
    owner: Flags.string({description: 'owner'}),
    initiative: Flags.string({char: 'i', description: 'initiative id'}),
    archived: Flags.boolean({description: 'include archived tasks', default: false}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TaskList)
    const {taskListView} = await import('../../cli/views/task-list.js')
    return this.show(await taskListView(flags))
  }
}
