import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {TeamList as TeamListAnswer} from '../../daemon/chat/wire.js'

export default class TeamList extends MeshCommand {
  static override description = `List the project's team members (.mesh/team/*.md), through the running daemon.

A card that cannot be used is listed with the problem the daemon found in it. ACCESS is the level the member's turns run at on this machine (read, edit, full: the base team's defaults, or \`access:\` in your clients.yaml); \`refused\` when that entry cannot be used. Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> team list', '<%= config.bin %> team list --json | jq -r \'.members[] | select(.exposure == "external") | .id\'']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TeamList)
    const [{connectDaemon}, {memberTable}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/team-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const {members} = await daemon.call<TeamListAnswer>('GET', '/team')
    if (!this.jsonEnabled()) {
      if (members.length === 0) this.log('No team members yet; add one with `mesh team add`.')
      else for (const line of memberTable(members)) this.log(line)
    }
    return {members}
  }
}
