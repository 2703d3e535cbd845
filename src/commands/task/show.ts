import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {findProjectRoot} from '../../standard/project/project-root.js'
import {showTask} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class TaskShow extends MeshCommand {
  static override description = 'Show one task: its fields and its body.'

  static override examples = ['<%= config.bin %> task show GEN3', '<%= config.bin %> task show GEN3 --json']

  static override args = {id: Args.string({description: 'task id', required: true})}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TaskShow)
    const task = await showTask(await findProjectRoot(flags.dir), args.id)
    if (task.problem) this.logToStderr(`Warning: ${task.path}: ${task.problem}; run \`mesh validate\`.`)
    const fields: Array<[string, string]> = [
      ['status', `${task.status}${task.dispatchable ? ' (dispatchable)' : ''}`],
      ['priority', task.priority],
      ['module', task.module],
      ['owner', task.owner],
      ['initiative', task.initiative ?? '—'],
      ['depends on', task.depends_on.join(', ') || '—'],
      ['created', task.created ?? '—'],
      ['updated', task.updated ?? '—'],
      ...(task.completed_at ? [['completed', task.completed_at] as [string, string]] : []),
      ['file', task.path + (task.archived ? ' (archived)' : '')],
    ]
    this.log(`${task.id}  ${task.title}`)
    for (const [name, value] of fields) this.log(`  ${name.padEnd(11)} ${value}`)
    this.log(task.body.replace(/^\n+/, '\n').trimEnd())
    return task
  }
}
