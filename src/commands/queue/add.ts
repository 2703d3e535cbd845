import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, convArg, itemText, queueRoute, textArg, textFileFlag} from '../../cli/queue-input.js'
import {checkMemberId} from '../../cli/team-input.js'
import type {QueueItem} from '../../protocol/queue.js'

export default class QueueAdd extends MeshCommand {
  static override description = `Queue a turn in a conversation: it is sent when the conversation's current turn ends (one item per finished turn).

Adding never sends: in an idle conversation, \`mesh queue promote\` sends an item now. A queue holds at most 50 items, each at most 64 KB of UTF-8 text. --member names who runs the turns of a conversation the daemon does not know yet (default: architect); a known conversation keeps its member.`

  static override examples = [
    '<%= config.bin %> queue add c-3f9a0b1c2d3e "Now add tests for the login route"',
    'git diff | <%= config.bin %> queue add c-3f9a0b1c2d3e --file -',
    '<%= config.bin %> queue add m-developer "Tidy the README" --member developer --json',
  ]

  static override args = {
    conv: convArg,
    text: textArg('the turn text'),
  }

  static override flags = {
    file: textFileFlag,
    member: Flags.string({description: 'member who runs a conversation the daemon does not know yet (default architect)'}),
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueueAdd)
    const conv = checkConv(args.conv)
    const member = flags.member === undefined ? undefined : checkMemberId(flags.member)
    const text = await itemText(args.text, flags.file)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const item = await daemon.call<QueueItem>('POST', queueRoute(conv), {text, ...(member ? {member} : {})})
    if (!this.jsonEnabled()) this.log(`Queued ${item.id} in ${conv} at position ${item.position}.`)
    return item
  }
}
