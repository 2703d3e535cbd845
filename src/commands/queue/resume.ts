import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, convArg, queueRoute} from '../../cli/queue-input.js'
import type {QueueFile} from '../../protocol/queue.js'

export default class QueueResume extends MeshCommand {
  static override description = `Let a paused queue go on.

After a turn of a conversation fails (a crash, a timeout, a cancel), its queue holds instead of sending its next item: \`mesh queue list\` shows it paused, with the failed turn as the reason. Resuming sends the first queued item at once when the conversation is idle, then one per finished turn as before. Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> queue resume c-3f9a0b1c2d3e']

  static override args = {conv: convArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueueResume)
    const conv = checkConv(args.conv)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const queue = await daemon.call<QueueFile>('POST', queueRoute(conv, '/resume'), {})
    const queued = queue.items.filter((item) => item.status === 'queued').length
    if (!this.jsonEnabled()) this.log(`Resumed the queue of ${conv}: ${queued} item(s) queued${queued > 0 ? '; the first is sent as soon as the conversation is idle' : ''}.`)
    return queue
  }
}
