import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {buildRoadmap, type RoadmapBuildResult} from '../../standard/roadmap/index.js'

export default class RoadmapBuild extends MeshCommand {
  static override description = `Generate .mesh/roadmap/state.json and state.js from cluster.yaml, tasks and initiatives.

Deterministic: the same files always give the same bytes, so the output never churns. With the project's daemon running it builds them (it is the one writer of .mesh/); otherwise they are written here.`

  static override examples = ['<%= config.bin %> roadmap build', '<%= config.bin %> roadmap build --json']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(RoadmapBuild)
    const {writeProject} = await import('../../cli/project-writes.js')
    const {via, result} = await writeProject(flags.dir, {
      daemon: (daemon) => daemon.call<RoadmapBuildResult>('POST', '/roadmap/build'),
      local: ({root}) => buildRoadmap(root),
    })
    for (const file of result.files) this.log(`${file.changed ? 'written  ' : 'unchanged'}  ${file.path}`)
    this.log(`${result.tasks} task${result.tasks === 1 ? '' : 's'}, ${result.initiatives} initiative${result.initiatives === 1 ? '' : 's'}.`)
    for (const problem of result.problems) this.logToStderr(`Warning: ${problem.path}: ${problem.problem} (left out)`)
    return {...result, via}
  }
}
