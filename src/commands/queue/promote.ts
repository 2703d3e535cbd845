import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, checkItemId, convArg, itemIdArg, queueRoute} from '../../cli/queue-input.js'
import type {Sent} from '../../daemon/chat/queue/send.js'

export default class QueuePromote extends MeshCommand {
  static override description = `Send a queued (or failed) item now, without waiting for the conversation's turn to end.

The item leaves the queue as a turn of the conversation: it runs at once, or right after the running turn. When the daemon runs as many turns as it may, the item stays queued (exit 1, code at_capacity): try again later. Any other refusal marks the item failed with the reason; promoting it again retries it.`

  static override examples = ['<%= config.bin %> queue promote c-3f9a0b1c2d3e q-0a1b2c3d4e5f']

  static override args = {conv: convArg, id: itemIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueuePromote)
    const conv = checkConv(args.conv)
    const id = checkItemId(args.id)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const sent = await daemon.call<Sent>('POST', queueRoute(conv, `/${id}/promote`), {})
    if (!this.jsonEnabled()) this.log(`Sent ${sent.item.id} as turn ${sent.turn.turn_id} in ${conv} (${sent.turn.state === 'running' ? 'running now' : 'after the running turn'}).`)
    return sent
  }
}
