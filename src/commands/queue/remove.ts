import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, checkItemId, convArg, itemIdArg, queueRoute} from '../../cli/queue-input.js'
import type {QueueItem} from '../../protocol/queue.js'

export default class QueueRemove extends MeshCommand {
  static override description = `Take an item out of its queue (a queued or failed one; an item being sent cannot be taken back).`

  static override examples = ['<%= config.bin %> queue remove c-3f9a0b1c2d3e q-0a1b2c3d4e5f']

  static override args = {conv: convArg, id: itemIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueueRemove)
    const conv = checkConv(args.conv)
    const id = checkItemId(args.id)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const item = await daemon.call<QueueItem>('DELETE', queueRoute(conv, `/${id}`))
    if (!this.jsonEnabled()) this.log(`Removed ${item.id} from ${conv}.`)
    return item
  }
}
