import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'

export default class TeamRotate extends MeshCommand {
  static override description = `Replace an exposed member's token and print the new one.

The previous token stops working at once. The new token is the last word of the output; it is a secret: treat the output like a password. An internal member has no token (member_not_found): expose it first.`

  static override examples = ['<%= config.bin %> team rotate consultant']

  static override args = {id: memberIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamRotate)
    const id = checkMemberId(args.id)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const {token} = await daemon.call<{id: string; token: string}>('POST', memberRoute(id, '/rotate'))
    if (!this.jsonEnabled()) this.log(`new member token of ${id} (the previous one no longer works): ${token}`)
    return {id, token}
  }
}
