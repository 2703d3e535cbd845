import {Args} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {MeshError} from '../../lib/errors.js'
import {assertAnswerShape} from '../../client/answer-shape.js'
import {openCheckedSession} from '../../cli/session-flags.js'
import {sessionFlags} from '../../cli/inbox-flags.js'

export default class InboxAck extends MeshCommand {
  static override description = `Remove messages from your inbox without reading them (their senders get receipts).

Ids that are not in your inbox are skipped; the count of removed messages is printed.`

  static override examples = ['<%= config.bin %> inbox ack 4812 4813', '<%= config.bin %> inbox ack 4812 --agent weather-bot --json']

  static override strict = false

  static override args = {
    ids: Args.string({description: 'message ids (one or more)', required: true}),
  }

  static override flags = {...sessionFlags}

  async run() {
    const {argv, flags} = await this.parse(InboxAck)
    const ids = (argv as string[]).map((raw) => {
      const id = Number(raw.replace(/^#/, ''))
      if (!Number.isSafeInteger(id) || id <= 0) throw new MeshError('invalid', 'usage_message_id', `"${raw}" is not a message id (a positive integer)`)
      return id
    })
    const {createInboxClient} = await import('../../client/registry/inbox-client.js')
    const session = await openCheckedSession(flags)
    const answer = await assertAnswerShape(await createInboxClient({registry: session.registry, token: () => session.token}).ack(ids), {acked: 'number'}, 'POST /v1/agents/messages/ack', session.registry)
    if (!this.jsonEnabled()) this.log(`acked ${answer.acked} of ${ids.length}`)
    return answer
  }
}
