import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'
import {canPrompt} from '../../cli/tty.js'
import type {MemberCard} from '../../daemon/team/cards.js'
import {invalid} from '../../lib/errors.js'

export default class TeamRemove extends MeshCommand {
  static override description = `Remove a team member: its card is deleted and its member token destroyed.

On a terminal it asks first (--yes skips the question); in a pipe or with --json it never asks, so --yes is required. The daemon keeps a snapshot of the card: \`mesh daemon restore team/<id>.md\` brings the card back (not its token; expose it again for a new one).`

  static override examples = ['<%= config.bin %> team remove reviewer', '<%= config.bin %> team remove reviewer --yes --json']

  static override args = {id: memberIdArg}

  static override flags = {
    yes: Flags.boolean({char: 'y', description: 'remove without asking', default: false}),
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamRemove)
    const id = checkMemberId(args.id)
    const interactive = canPrompt() && !this.jsonEnabled()
    if (!flags.yes && !interactive) throw invalid('usage_confirm_needed', `mesh team remove ${id} deletes the card; pass --yes to confirm (there is no terminal to ask on)`, {field: 'yes'})
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    // Read first: an unknown member is reported before any question is asked.
    const member = await daemon.call<MemberCard>('GET', memberRoute(id))
    if (!flags.yes) {
      const {confirm} = await import('../../cli/confirm.js')
      const {printable} = await import('../../client/printable.js')
      const exposed = member.exposure === 'external' ? ' and its member token destroyed' : ''
      if (!(await confirm(`Remove ${id} (${printable(member.title ?? id)})? Its card ${member.path} is deleted${exposed}.`))) {
        throw invalid('remove_cancelled', `Kept ${id}: nothing was removed`)
      }
    }
    const result = await daemon.call<{id: string; deleted: boolean}>('DELETE', memberRoute(id))
    if (!this.jsonEnabled()) this.log(`Removed ${id}; \`${this.config.bin} daemon restore team/${id}.md\` brings its card back.`)
    return result
  }
}
