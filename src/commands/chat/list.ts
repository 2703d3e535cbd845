import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import type {ConvList} from '../../daemon/chat/wire.js'

export default class ChatList extends MeshCommand {
  static override description = `List the conversations the daemon knows: operator chats (c-…), member sessions (m-<member>), asks (ask-…).

Newest first: the conversation, its member, its turns, whether a turn runs or inputs wait, and when its last turn ended. \`mesh chat show <conv>\` reads one back. In a pipe as plain text; with --json as NDJSON, one conversation per line ({conv, member, session_id, live, waiting, turns, turn_id, last_final_at}). Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> chat list', '<%= config.bin %> chat list --json | jq -r \'select(.live) | .conv\'']

  static override flags = {
    dir: projectDirFlag,
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(ChatList)
    const [{connectDaemon}, {table}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../client/cluster/text.js')])
    const daemon = await connectDaemon(flags.dir)
    const {convs} = await daemon.call<ConvList>('GET', '/chat/convs')
    convs.sort((a, b) => (b.last_final_at ?? '').localeCompare(a.last_final_at ?? '') || a.conv.localeCompare(b.conv))
    if (this.jsonEnabled()) {
      for (const conv of convs) process.stdout.write(JSON.stringify(conv) + '\n')
      return
    }
    if (convs.length === 0) return this.log('No conversations yet; `mesh ask <member> "…"` starts one.')
    const colour = stdoutIsTTY() && !process.env.NO_COLOR
    const state = (conv: ConvList['convs'][number]) => (conv.live ? 'running' : conv.waiting > 0 ? `${conv.waiting} waiting` : 'idle')
    const rows = [['CONV', 'MEMBER', 'TURNS', 'STATE', 'LAST ENDED'], ...convs.map((conv) => [conv.conv, conv.member, String(conv.turns), state(conv), conv.last_final_at ? conv.last_final_at.slice(0, 19).replace('T', ' ') : '—'])]
    const lines = table(rows)
    this.log(colour ? `\x1b[1m${lines[0]}\x1b[0m` : lines[0])
    for (const line of lines.slice(1)) this.log(line)
  }
}
