import {MeshCommand} from '../../cli/base-command.js'
import {buildRoadmap} from '../../standard/roadmap/index.js'
import {findProjectRoot} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class RoadmapBuild extends MeshCommand {
  static override description = `Generate .mesh/roadmap/state.json and state.js from cluster.yaml, tasks and initiatives.

Deterministic: the same files always give the same bytes, so the output never churns.`

  static override examples = ['<%= config.bin %> roadmap build', '<%= config.bin %> roadmap build --json']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(RoadmapBuild)
    const result = await buildRoadmap(await findProjectRoot(flags.dir))
    for (const file of result.files) this.log(`${file.changed ? 'written  ' : 'unchanged'}  ${file.path}`)
    this.log(`${result.tasks} task${result.tasks === 1 ? '' : 's'}, ${result.initiatives} initiative${result.initiatives === 1 ? '' : 's'}.`)
    for (const problem of result.problems) this.logToStderr(`Warning: ${problem.path}: ${problem.problem} (left out)`)
    return result
  }
}
