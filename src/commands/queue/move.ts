import {Args} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, checkItemId, checkPosition, convArg, itemIdArg, queueRoute} from '../../cli/queue-input.js'
import type {QueueItem} from '../../protocol/queue.js'

export default class QueueMove extends MeshCommand {
  static override description = `Move a queued item to another place in its queue.

<position> is the item's new 0-based place among the queue's items, as \`mesh queue list\` numbers them (0: sent next); past the end puts it last.`

  static override examples = ['<%= config.bin %> queue move c-3f9a0b1c2d3e q-0a1b2c3d4e5f 0']

  static override args = {
    conv: convArg,
    id: itemIdArg,
    position: Args.string({description: 'new 0-based place (0: sent next)', required: true, ignoreStdin: true}),
  }

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueueMove)
    const conv = checkConv(args.conv)
    const id = checkItemId(args.id)
    const position = checkPosition(args.position)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const item = await daemon.call<QueueItem>('POST', queueRoute(conv, `/${id}/move`), {position})
    if (!this.jsonEnabled()) this.log(`Moved ${item.id} to position ${item.position} in ${conv}.`)
    return item
  }
}
