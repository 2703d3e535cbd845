import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {assertAnswerShape} from '../../client/answer-shape.js'
import {openCheckedSession} from '../../cli/session-flags.js'
import {sessionFlags} from '../../cli/inbox-flags.js'

export default class InboxStatus extends MeshCommand {
  static override description = `Show how messages reach your agent: the webhook (if set), what waits in the inbox or the delivery queue, and dead letters.

--retry puts dead letters back into the webhook delivery queue. Set or remove the webhook with the heartbeat's PATCH me ({"webhook": {"url": …}}).`

  static override examples = ['<%= config.bin %> inbox status', '<%= config.bin %> inbox status --retry --json']

  static override flags = {
    ...sessionFlags,
    retry: Flags.boolean({description: 'requeue dead letters for the webhook', default: false}),
  }

  async run() {
    const {flags} = await this.parse(InboxStatus)
    const {createInboxClient} = await import('../../client/registry/inbox-client.js')
    const {formatMessageLine} = await import('../../client/registry/inbox-format.js')
    const session = await openCheckedSession(flags)
    const client = createInboxClient({registry: session.registry, token: () => session.token})
    const requeued = flags.retry ? (await client.retryDeadLetters()).requeued : undefined
    const status = assertAnswerShape(await client.status(), {webhook: 'object?', pending: 'object', dead_letters: 'array'}, 'GET /v1/agents/me/webhook', session.registry)
    if (!this.jsonEnabled()) {
      this.log(status.webhook ? `webhook: ${status.webhook.url} (since ${status.webhook.created_at})` : 'webhook: none (poll with mesh inbox read)')
      this.log(`waiting: ${status.pending.inbox} in the inbox, ${status.pending.webhook} for the webhook, ${status.pending.dead} dead`)
      if (requeued !== undefined) this.log(`requeued ${requeued} dead letter(s)`)
      for (const dead of status.dead_letters) this.log(`dead ${formatMessageLine(dead)}  (${dead.attempts} attempts, last: ${dead.last_error ?? 'unknown'})`)
    }
    return {...status, ...(requeued === undefined ? {} : {requeued})}
  }
}
