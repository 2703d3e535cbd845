import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {cardFields, cardFlags, checkMemberId} from '../../cli/team-input.js'
import type {MemberCard} from '../../daemon/team/cards.js'
import type {MemberDraft} from '../../daemon/team/draft.js'
import {invalid} from '../../lib/errors.js'
import {MEMBER_EXPOSURES} from '../../protocol/team.js'

export default class TeamAdd extends MeshCommand {
  static override description = `Add a team member: write .mesh/team/<id>.md through the running daemon.

Give the fields as flags, or describe the member in plain words with --from-text: the daemon drafts id, title, context, exposure and prompt from the text (fixed rules, no model; docs/daemon.md, Team), and any flag or <id> you give wins over the draft. A member added with --exposure external gets a member token at once; \`mesh team expose <id>\` prints it.`

  static override examples = [
    '<%= config.bin %> team add reviewer --title "Code reviewer" --context architecture,stack --prompt-file reviewer.md',
    '<%= config.bin %> team add --from-text "Security reviewer. Reads every change for secrets and unsafe input; knows the architecture."',
    '<%= config.bin %> team add helpdesk --from-text "Answers questions from outside the team, exposed to partners." --model sonnet',
  ]

  static override args = {
    id: Args.string({description: 'member id: a lowercase letter, then 1 to 31 of a-z, 0-9 and - (optional with --from-text: the draft names one)'}),
  }

  static override flags = {
    ...cardFlags({removable: false}),
    exposure: Flags.option({options: MEMBER_EXPOSURES, description: 'external: the member gets a token and a public agent card (default internal)'})(),
    'from-text': Flags.string({description: 'describe the member in plain words; the daemon drafts the card from it', exclusive: ['prompt-file']}),
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamAdd)
    const fromText = flags['from-text']
    if (args.id === undefined && fromText === undefined) throw invalid('usage_missing_id', 'Name the member: mesh team add <id> --title "…", or describe it with --from-text "…"', {field: 'id'})
    if (flags.title === undefined && fromText === undefined) throw invalid('usage_missing_title', 'A new member needs --title "…" (or --from-text "…" to draft one)', {field: 'title'})
    const id = args.id === undefined ? undefined : checkMemberId(args.id)
    const given = await cardFields(flags, {removable: false})

    const [{connectDaemon}, {memberFields}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/team-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const draft = fromText === undefined ? undefined : await daemon.call<MemberDraft>('POST', '/team/draft', {text: fromText})
    const body = {...draft, ...given, ...(id ? {id} : {}), ...(flags.exposure ? {exposure: flags.exposure} : {})}
    const member = await daemon.call<MemberCard>('POST', '/team', body)

    if (!this.jsonEnabled()) {
      this.log(`Added ${member.id} (${member.path}).`)
      for (const line of memberFields(member, daemon.url)) this.log(line)
      if (member.exposure === 'external') this.log(`\n${member.id} is exposed: \`${this.config.bin} team expose ${member.id}\` prints its member token (a secret).`)
    }
    return member
  }
}
