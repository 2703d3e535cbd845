import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkConv} from '../../cli/queue-input.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import type {ThreadAnswer} from '../../daemon/chat/wire.js'

export default class ChatShow extends MeshCommand {
  static override description = `Read a conversation back from the timeline: what was asked, each turn's tools and answer (or why it failed), what it cost, the delegations it opened and their answers.

Read through the running daemon (GET /chat/conv/<conv>/thread), which reads .mesh/timeline/. On a terminal in colour; in a pipe as plain text; with --json as NDJSON: first {"type":"thread", conv, member, live, turns, usage, truncated}, then one line per entry as the timeline holds it ({ts, type, author, text, …}). Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> chat show c-3f9a0b1c2d3e', '<%= config.bin %> chat show m-developer --limit 50', '<%= config.bin %> chat show c-3f9a0b1c2d3e --json | jq -c \'select(.type == "chat.assistant.final") | {status, usage}\'']

  static override args = {conv: Args.string({description: 'conversation id (c-…, m-<member>, ask-…; `mesh chat list` shows them)', required: true, ignoreStdin: true})}

  static override flags = {
    dir: projectDirFlag,
    limit: Flags.integer({description: 'show the last N entries (default 1000)', min: 1, max: 10_000}),
  }

  protected override streamsNdjson = true

  async run() {
    const {args, flags} = await this.parse(ChatShow)
    const conv = checkConv(args.conv)
    const [{connectDaemon}, {threadLines}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/thread-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const thread = await daemon.call<ThreadAnswer>('GET', `/chat/conv/${conv}/thread${flags.limit ? `?limit=${flags.limit}` : ''}`)
    if (this.jsonEnabled()) {
      const {entries, ...head} = thread
      process.stdout.write(JSON.stringify({type: 'thread', ...head}) + '\n')
      for (const entry of entries) process.stdout.write(JSON.stringify(entry) + '\n')
      return
    }
    const colour = stdoutIsTTY() && !process.env.NO_COLOR
    for (const line of threadLines(thread, colour)) this.log(line)
  }
}
