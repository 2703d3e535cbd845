import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {invalid} from '../../lib/errors.js'
import {TASK_PRIORITIES} from '../../standard/constants.js'
import {assertSlug, writtenStatus} from '../../standard/tasks/index.js'

export default class TaskCreate extends MeshCommand {
  static override description = `Create a task in a module with the next free id.

Ids are <PREFIX><n>: the module's task_prefix from cluster.yaml (or one derived from the module id), numbered one past the highest id ever used, archived tasks included. Safe when several processes create at once. With the project's daemon running the task is created through it (task.created on /events); otherwise it is written here.`

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
    by: Flags.string({description: 'who creates it: operator or a team member id (default: MESH_MEMBER in a turn, else operator)'}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TaskCreate)
    const [{actingAs}, {createTaskEither}] = await Promise.all([import('../../cli/project-writes.js'), import('../../cli/task-writes.js')])
    const by = actingAs(flags.by)
    // Usage errors (exit 2) here, before the daemon is looked for; the rest is checked where the task is written.
    if (flags.title.trim() === '' || /[\r\n]/.test(flags.title)) throw invalid('usage_title_invalid', 'A task title is one non-empty line.', {field: 'title'})
    if (flags.status !== undefined) writtenStatus(flags.status)
    if (flags.slug !== undefined) assertSlug(flags.slug)
    if (flags.owner !== undefined && flags.owner.trim() === '') throw invalid('usage_owner_invalid', 'The owner must not be empty.', {field: 'owner'})
    const task = await createTaskEither(flags.dir, {
      module: flags.module,
      title: flags.title,
      slug: flags.slug,
      status: flags.status,
      priority: flags.priority,
      owner: flags.owner,
      initiative: flags.initiative,
      dependsOn: flags['depends-on'],
      tags: flags.tag,
      by,
    })
    this.log(`created ${task.id}  ${task.path}`)
    return task
  }
}
