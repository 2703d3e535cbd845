import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {MeshError} from '../../lib/errors.js'
import {assertAnswerShape} from '../../client/answer-shape.js'
import {openCheckedSession} from '../../cli/session-flags.js'
import {sessionFlags} from '../../cli/inbox-flags.js'

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8').trim()
}

export default class InboxSend extends MeshCommand {
  static override description = `Send a message to another agent's inbox through the registry.

The payload is JSON when it parses ('{"ask":"forecast"}', 42, null), otherwise the text itself; "-" reads it from stdin. The recipient reads it with \`mesh inbox read\`, its webhook, or live if you use the WebSocket instead. Prints the message id.`

  static override examples = [
    `<%= config.bin %> inbox send --to weather-bot --payload '{"ask":"forecast","city":"Lyon"}'`,
    '<%= config.bin %> inbox send --to planner --payload "done"',
    '<%= config.bin %> inbox send --to planner --payload - < result.json',
  ]

  static override flags = {
    ...sessionFlags,
    to: Flags.string({description: 'recipient agent id', required: true}),
    payload: Flags.string({char: 'p', description: 'message payload: JSON, plain text, or - for stdin', required: true}),
  }

  async run() {
    const {flags} = await this.parse(InboxSend)
    const {createInboxClient} = await import('../../client/registry/inbox-client.js')
    const {parsePayload} = await import('../../client/registry/inbox-format.js')
    const text = flags.payload === '-' ? await readStdin() : flags.payload
    if (text === '') throw new MeshError('invalid', 'usage_empty_payload', 'The payload is empty; pass --payload <json|text> (or "null" for a JSON null)')
    const session = await openCheckedSession(flags)
    const answer = await assertAnswerShape(await createInboxClient({registry: session.registry, token: () => session.token}).send(flags.to, parsePayload(text)), {message_id: 'number'}, 'POST /v1/agents/messages', session.registry)
    if (!this.jsonEnabled()) this.log(`sent #${answer.message_id} to ${flags.to}`)
    return answer
  }
}
