import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {assertAnswerShape} from '../../client/answer-shape.js'
import {openCheckedSession} from '../../cli/session-flags.js'
import {isMeshError} from '../../lib/errors.js'
import type {InboxMessage} from '../../registry/messaging/store/store.js'
import {sessionFlags} from '../../cli/inbox-flags.js'

export default class InboxRead extends MeshCommand {
  static override description = `Read (and consume) the messages waiting in your agent's inbox on the registry.

Messages are removed from the inbox as they are returned, oldest first, and each sender gets a delivery receipt. On a terminal: one line per message. On a pipe: one JSON message per line (NDJSON). With --json: {"messages": [...]}. Fails with webhook_active while a webhook is set (messages go there instead).`

  static override examples = [
    '<%= config.bin %> inbox read',
    '<%= config.bin %> inbox read --limit 10 --agent weather-bot',
    '<%= config.bin %> inbox read --json | jq ".messages[].payload"',
    '<%= config.bin %> inbox read --all | while read -r line; do echo "$line" | jq .from; done',
  ]

  static override flags = {
    ...sessionFlags,
    limit: Flags.integer({char: 'n', description: 'messages to consume at most (1 to 500)', min: 1, max: 500}),
    all: Flags.boolean({description: 'keep reading until the inbox is empty', default: false}),
  }

  async run() {
    const {flags} = await this.parse(InboxRead)
    const {createInboxClient} = await import('../../client/registry/inbox-client.js')
    const {formatMessageLine} = await import('../../client/registry/inbox-format.js')
    const session = await openCheckedSession(flags)
    const inbox = createInboxClient({registry: session.registry, token: () => session.token})
    const tty = stdoutIsTTY()
    // Reading consumes: whatever was read before a failure must still be shown, never dropped.
    const show = (message: InboxMessage) => (tty && typeof message?.ts === 'string' ? formatMessageLine(message) : JSON.stringify(message))
    const messages: InboxMessage[] = []
    for (;;) {
      let batch: InboxMessage[]
      try {
        batch = assertAnswerShape(await inbox.read(flags.limit), {messages: 'array'}, 'GET /v1/agents/messages', session.registry).messages
      } catch (error) {
        if (messages.length > 0 && this.jsonEnabled() && isMeshError(error)) {
          // One document with both, and a failing exit; this.exit() here would print a second (EEXIT) document.
          process.exitCode = 1
          return {messages, error: {code: error.code, message: error.message}}
        }
        throw error
      }
      messages.push(...batch)
      if (!this.jsonEnabled()) for (const message of batch) this.log(show(message))
      // A full page means more may wait; --limit alone reads one page.
      if (!flags.all || batch.length === 0 || batch.length < (flags.limit ?? 100)) break
    }
    if (tty && !this.jsonEnabled() && messages.length === 0) this.log(`No messages for ${session.agentId}.`)
    return {messages}
  }
}
