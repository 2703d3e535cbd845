import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'
import type {MemberCard} from '../../daemon/team/cards.js'

export default class TeamExpose extends MeshCommand {
  static override description = `Expose a team member outside the project and print its member token.

Sets the card's exposure to external: the daemon creates the member's token (kept only in .mesh/credentials/team-tokens.yaml) and serves its public agent card. An outside caller asks the member with that token and nothing else. Running it again on an exposed member prints the same token. The token is the last word of the output, so \`$(mesh team expose <id> | awk '{print $NF}')\` works; it is a secret: treat the output like a password.`

  static override examples = ['<%= config.bin %> team expose consultant', "<%= config.bin %> team expose consultant | awk '{print $NF}' | pbcopy"]

  static override args = {id: memberIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamExpose)
    const id = checkMemberId(args.id)
    const [{connectDaemon}, {agentCardUrl}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/team-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const member = await daemon.call<MemberCard>('PATCH', memberRoute(id), {exposure: 'external'})
    const {token} = await daemon.call<{id: string; token: string}>('GET', memberRoute(id, '/token'))
    const card = agentCardUrl(daemon.url, id)
    if (!this.jsonEnabled()) {
      this.log(`${id} is exposed; its agent card: ${card}`)
      this.log(`member token: ${token}`)
    }
    return {id, exposure: member.exposure, card, token}
  }
}
