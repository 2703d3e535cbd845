import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {writtenStatus} from '../../standard/tasks/index.js'

export default class TaskMove extends MeshCommand {
  static override description = `Move a task to another status.

Statuses: backlog, next, active, blocked, done, draft; also planned (→ next), in-progress, in_progress, doing (→ active), cancelled and pending-operator (kept as written). Sets updated, and completed_at on done; a task moved out of done loses completed_at, resolved_by and resolved_by_conv. The body is never touched.

With the project's daemon running the move goes through it (its lock, a snapshot, task.updated on /events); otherwise it is written here, with the same rules and a snapshot too. Only the operator takes a task out of draft: a move by a member is refused (operator_only). --by defaults to the member whose turn runs the command (MESH_MEMBER), else the operator.`

  static override examples = ['<%= config.bin %> task move GEN3 active', '<%= config.bin %> task move GEN3 done --json', '<%= config.bin %> task move GEN4 blocked --by developer']

  static override args = {
    id: Args.string({description: 'task id', required: true}),
    status: Args.string({description: 'new status', required: true}),
  }

  static override flags = {
    by: Flags.string({description: 'who moves it: operator or a team member id (default: MESH_MEMBER in a turn, else operator)'}),
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TaskMove)
    const [{actingAs}, {moveTaskEither}] = await Promise.all([import('../../cli/project-writes.js'), import('../../cli/task-writes.js')])
    const by = actingAs(flags.by)
    // A bad word is a usage error here, before the daemon is looked for.
    writtenStatus(args.status)
    const moved = await moveTaskEither(flags.dir, {id: args.id, status: args.status, by})
    const dispatch = moved.dispatchable ? 'dispatchable' : 'not dispatchable'
    if (moved.changed) this.log(`${moved.id}: ${moved.from || '(none)'} → ${moved.to} (${dispatch})`)
    else this.log(`${moved.id} is already ${moved.to} (${dispatch}); nothing changed.`)
    return moved
  }
}
