import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, convArg, itemLine, queueRoute} from '../../cli/queue-input.js'
import {printable} from '../../client/printable.js'
import type {QueueFile} from '../../protocol/queue.js'

export default class QueueList extends MeshCommand {
  static override description = `List the turns queued in a conversation (.mesh/queues/<conv>.json), through the running daemon.

Items are in queue order: when the conversation's turn ends, the first queued one is sent. After a failed turn the queue is paused (shown with the reason) until \`mesh queue resume\`. Sent and removed items are not listed (the timeline keeps what was sent); failed ones are, with their reason, until you promote or remove them. Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> queue list c-3f9a0b1c2d3e', '<%= config.bin %> queue list c-3f9a0b1c2d3e --json | jq -r \'.items[] | select(.status == "queued") | .id\'']

  static override args = {conv: convArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueueList)
    const conv = checkConv(args.conv)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const queue = await daemon.call<QueueFile>('GET', queueRoute(conv))
    if (!this.jsonEnabled()) {
      if (queue.items.length === 0) this.log(`The queue of ${conv} is empty.`)
      else {
        this.log(`${conv}: ${queue.items.length} item(s), version ${queue.version}${queue.member ? `, runs with ${queue.member}` : ''}`)
        // Issue 19: a paused queue says why, and how to let it go on.
        if (queue.paused) this.log(`paused: ${printable(queue.paused.reason)} — \`mesh queue resume ${conv}\` lets it go on`)
        for (const item of queue.items) this.log(itemLine(item))
      }
    }
    return queue
  }
}
