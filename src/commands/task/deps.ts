import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {findProjectRoot} from '../../standard/project/project-root.js'
import {renderDepTree, taskDependencies} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class TaskDeps extends MeshCommand {
  static override description = `Show the dependency graph of tasks (depends_on), as a tree or --json nodes and edges.

Exits 1 when the graph has a cycle.`

  static override examples = ['<%= config.bin %> task deps', '<%= config.bin %> task deps API7', '<%= config.bin %> task deps --json']

  static override args = {id: Args.string({description: 'only this task and what it needs'})}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TaskDeps)
    const graph = await taskDependencies(await findProjectRoot(flags.dir), args.id)
    const tree = renderDepTree(graph)
    this.log(tree === '' ? 'No tasks.' : tree)
    if (graph.cycles.length > 0) {
      this.logToStderr(`Error: ${graph.cycles.length} dependency cycle${graph.cycles.length === 1 ? '' : 's'}; a task in a cycle can never start.`)
      // The graph is still printed (or returned as JSON); only the exit code says it is broken.
      process.exitCode = 1
    }
    return graph
  }
}
