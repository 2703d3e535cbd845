import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class TeamList extends MeshCommand {
  static override description = `List the project's team members (.mesh/team/*.md), through the running daemon, or from the files when none runs.

A card that cannot be used is listed with the problem found in it. ACCESS is the level the member's turns run at on this machine (read, edit, full: the base team's defaults, or \`access:\` in your clients.yaml); \`refused\` when that entry cannot be used. With no daemon running the cards are read from disk as they are (a note on stderr says so; --json has source: "files").`

  static override examples = ['<%= config.bin %> team list', '<%= config.bin %> team list --json | jq -r \'.members[] | select(.exposure == "external") | .id\'']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TeamList)
    const {teamListView} = await import('../../cli/views/team-list.js')
    return this.show(await teamListView(flags))
  }
}
