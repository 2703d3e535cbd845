import {findProjectRoot} from '../../standard/project/project-root.js'
// The two modules it needs, not the area's index (every task operation and their imports).
import {formatTable} from '../../standard/tasks/format.js'
import {listTasks, type TaskSummary} from '../../standard/tasks/query.js'
import type {CommandOutcome} from './outcome.js'

export interface TaskListFlags {
  status?: string[]
  module?: string
  owner?: string
  initiative?: string
  archived?: boolean
  dir?: string
}

/** `mesh task list`: the tasks that match, as a table, with a warning for each file that cannot be read as a task. */
export async function taskListView(flags: TaskListFlags): Promise<CommandOutcome<TaskSummary[]>> {
  const root = await findProjectRoot(flags.dir)
  const tasks = await listTasks(root, {status: flags.status, module: flags.module, owner: flags.owner, initiative: flags.initiative, archived: flags.archived ?? false})
  const notes = tasks.flatMap((task) => (task.problem ? [`Warning: ${task.path}: ${task.problem}; run \`mesh validate\`.`] : []))
  if (tasks.length === 0) return {result: tasks, lines: ['No tasks match.'], notes}
  const rows = tasks.map((task) => [task.id, task.status + (task.archived ? ' (archived)' : ''), task.priority, task.module, task.owner, task.initiative ?? '', task.title])
  return {result: tasks, lines: [formatTable(['ID', 'STATUS', 'PRIORITY', 'MODULE', 'OWNER', 'INITIATIVE', 'TITLE'], rows)], notes}
}
