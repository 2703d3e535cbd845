import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {cardFields, cardFlags, checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'
import type {MemberCard} from '../../daemon/team/cards.js'
import {invalid} from '../../lib/errors.js'

export default class TeamEdit extends MeshCommand {
  static override description = `Change fields of a team member's card through the running daemon.

Only the fields you give change; the rest of the card (key order, comments) stays, and the prompt is kept byte for byte unless --prompt-file replaces it. An empty --client, --model or --effort removes that field. Exposure has its own commands: \`mesh team expose\` and \`mesh team revoke\`.`

  static override examples = [
    '<%= config.bin %> team edit developer --model sonnet --effort high',
    '<%= config.bin %> team edit developer --context architecture,stack',
    '<%= config.bin %> team edit developer --prompt-file developer-prompt.md',
    "<%= config.bin %> team edit developer --effort ''",
  ]

  static override args = {id: memberIdArg}

  static override flags = {
    ...cardFlags({removable: true}),
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamEdit)
    const id = checkMemberId(args.id)
    const patch = await cardFields(flags, {removable: true})
    if (Object.keys(patch).length === 0) throw invalid('usage_nothing_to_change', 'Nothing to change: give at least one of --title, --client, --model, --context, --effort, --prompt-file')
    const [{connectDaemon}, {memberFields}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/team-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const member = await daemon.call<MemberCard>('PATCH', memberRoute(id), patch)
    if (!this.jsonEnabled()) {
      this.log(`Updated ${member.id} (${Object.keys(patch).join(', ')}).`)
      for (const line of memberFields(member, daemon.url)) this.log(line)
    }
    return member
  }
}
