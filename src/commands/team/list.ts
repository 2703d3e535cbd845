import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {TeamList as TeamListAnswer} from '../../daemon/chat/wire.js'

export default class TeamList extends MeshCommand {
  static override description = `List the project's team members (.mesh/team/*.md), through the running daemon, or from the files when none runs.

A card that cannot be used is listed with the problem found in it. ACCESS is the level the member's turns run at on this machine (read, edit, full: the base team's defaults, or \`access:\` in your clients.yaml); \`refused\` when that entry cannot be used. With no daemon running the cards are read from disk as they are (a note on stderr says so; --json has source: "files").`

  static override examples = ['<%= config.bin %> team list', '<%= config.bin %> team list --json | jq -r \'.members[] | select(.exposure == "external") | .id\'']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TeamList)
    const [{readProject, FILES_NOTE}, {memberTable}] = await Promise.all([import('../../cli/project-reads.js'), import('../../cli/team-render.js')])
    const {source, result} = await readProject<TeamListAnswer>(flags.dir, {
      daemon: (session) => session.call<TeamListAnswer>('GET', '/team'),
      files: async (reader) => (await import('../../daemon/team/roster.js')).readRoster(reader),
    })
    const {members} = result
    if (!this.jsonEnabled()) {
      if (source === 'files') process.stderr.write(`${FILES_NOTE} (.mesh/team/)\n`)
      if (members.length === 0) this.log('No team members yet; add one with `mesh team add`.')
      else for (const line of memberTable(members)) this.log(line)
    }
    return {members, source}
  }
}
