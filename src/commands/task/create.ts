import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {TASK_PRIORITIES} from '../../standard/constants.js'
import {createTask, findProjectRoot} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class TaskCreate extends MeshCommand {
  static override description = `Create a task in a module with the next free id.

Ids are <PREFIX><n>: the module's task_prefix from cluster.yaml (or one derived from the module id), numbered one past the highest id ever used, archived tasks included. Safe when several processes create at once.`

  static override examples = [
    '<%= config.bin %> task create --module general --title "Set up CI"',
    '<%= config.bin %> task create --module api --title "Login route" --priority high --initiative auth --depends-on API3',
  ]

  static override flags = {
    module: Flags.string({char: 'm', description: 'module id from cluster.yaml', required: true}),
    title: Flags.string({char: 't', description: 'one-line title', required: true}),
    slug: Flags.string({description: 'file-name slug (default: from the title)'}),
    status: Flags.string({description: 'initial status (default backlog)'}),
    priority: Flags.string({description: 'priority (default medium)', options: [...TASK_PRIORITIES]}),
    owner: Flags.string({description: 'owner (default architect)'}),
    initiative: Flags.string({description: 'initiative id the task serves'}),
    'depends-on': Flags.string({description: 'id of a task this one needs (repeatable)', multiple: true}),
    tag: Flags.string({description: 'tag (repeatable)', multiple: true}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TaskCreate)
    const root = await findProjectRoot(flags.dir)
    const task = await createTask(root, {
      module: flags.module,
      title: flags.title,
      slug: flags.slug,
      status: flags.status,
      priority: flags.priority,
      owner: flags.owner,
      initiative: flags.initiative,
      dependsOn: flags['depends-on'],
      tags: flags.tag,
    })
    this.log(`created ${task.id}  ${task.path}`)
    return task
  }
}
