import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv, checkItemId, convArg, itemIdArg, itemText, queueRoute, textArg, textFileFlag} from '../../cli/queue-input.js'
import type {QueueItem} from '../../protocol/queue.js'

export default class QueueEdit extends MeshCommand {
  static override description = `Replace the text of a queued item (only a queued one: not one being sent or failed).`

  static override examples = ['<%= config.bin %> queue edit c-3f9a0b1c2d3e q-0a1b2c3d4e5f "Add tests for logout too"', '<%= config.bin %> queue edit c-3f9a0b1c2d3e q-0a1b2c3d4e5f --file brief.md']

  static override args = {
    conv: convArg,
    id: itemIdArg,
    text: textArg('the new text'),
  }

  static override flags = {
    file: textFileFlag,
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(QueueEdit)
    const conv = checkConv(args.conv)
    const id = checkItemId(args.id)
    const text = await itemText(args.text, flags.file)
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    const item = await daemon.call<QueueItem>('POST', queueRoute(conv, `/${id}/edit`), {text})
    if (!this.jsonEnabled()) this.log(`Edited ${item.id} in ${conv}.`)
    return item
  }
}
