import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'
import type {MemberCard} from '../../daemon/team/cards.js'

export default class TeamRevoke extends MeshCommand {
  static override description = `Make an exposed member internal again: its token is destroyed and its agent card is no longer served.

The token stops working before the card is rewritten. Revoking an internal member changes nothing.`

  static override examples = ['<%= config.bin %> team revoke consultant']

  static override args = {id: memberIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamRevoke)
    const id = checkMemberId(args.id)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const member = await daemon.call<MemberCard>('PATCH', memberRoute(id), {exposure: 'internal'})
    if (!this.jsonEnabled()) this.log(`${id} is internal: it has no member token and no public agent card.`)
    return member
  }
}
