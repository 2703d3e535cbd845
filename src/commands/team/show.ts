import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'
import type {MemberCard} from '../../daemon/team/cards.js'

export default class TeamShow extends MeshCommand {
  static override description = `Show one team member: its card's fields and its prompt.

An exposed member also shows where its public agent card is served. Its member token is not shown: \`mesh team expose <id>\` prints it.`

  static override examples = ['<%= config.bin %> team show developer', '<%= config.bin %> team show developer --json | jq -r .prompt']

  static override args = {id: memberIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamShow)
    const id = checkMemberId(args.id)
    const [{connectDaemon}, {memberDetail}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/team-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const member = await daemon.call<MemberCard>('GET', memberRoute(id))
    if (!this.jsonEnabled()) for (const line of memberDetail(member, daemon.url)) this.log(line)
    return member
  }
}
