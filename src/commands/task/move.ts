import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {findProjectRoot, moveTask} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class TaskMove extends MeshCommand {
  static override description = `Move a task to another status.

Statuses: backlog, next, active, blocked, done, draft; also planned (→ next), in-progress, in_progress, doing (→ active), cancelled and pending-operator (kept as written). Sets updated, and completed_at on done. The body is never touched.`

  static override examples = ['<%= config.bin %> task move GEN3 active', '<%= config.bin %> task move GEN3 done --json']

  static override args = {
    id: Args.string({description: 'task id', required: true}),
    status: Args.string({description: 'new status', required: true}),
  }

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TaskMove)
    const moved = await moveTask(await findProjectRoot(flags.dir), args.id, args.status)
    const dispatch = moved.dispatchable ? 'dispatchable' : 'not dispatchable'
    if (moved.changed) this.log(`${moved.id}: ${moved.from || '(none)'} → ${moved.to} (${dispatch})`)
    else this.log(`${moved.id} is already ${moved.to} (${dispatch}); nothing changed.`)
    return moved
  }
}
