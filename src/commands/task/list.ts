import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {findProjectRoot} from '../../standard/project/project-root.js'
import {formatTable, listTasks} from '../../standard/tasks/index.js'
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
    const root = await findProjectRoot(flags.dir)
    const tasks = await listTasks(root, {status: flags.status, module: flags.module, owner: flags.owner, initiative: flags.initiative, archived: flags.archived})
    for (const task of tasks) if (task.problem) this.logToStderr(`Warning: ${task.path}: ${task.problem}; run \`mesh validate\`.`)
    if (tasks.length === 0) {
      this.log('No tasks match.')
    } else {
      const rows = tasks.map((task) => [task.id, task.status + (task.archived ? ' (archived)' : ''), task.priority, task.module, task.owner, task.initiative ?? '', task.title])
      this.log(formatTable(['ID', 'STATUS', 'PRIORITY', 'MODULE', 'OWNER', 'INITIATIVE', 'TITLE'], rows))
    }
    return tasks
  }
}
