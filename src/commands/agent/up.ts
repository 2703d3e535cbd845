import {stat} from 'node:fs/promises'
import {resolve} from 'node:path'
import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../../client/registry/search-client.js'
import {assertAgentId} from '../../cli/agent-id.js'
import {assertCredentialsDir} from '../../cli/credentials-dir.js'
import {printable} from '../../client/printable.js'
import {isMeshError, MeshError} from '../../lib/errors.js'

/** A card error as one line that names the file (YAML errors come with a multi-line code frame). */
function cardError(error: unknown, shownPath: string, fullPath: string): unknown {
  if (!isMeshError(error)) return error
  const firstLine = error.message.split('\n')[0].replace(/:\s*$/, '')
  const message = firstLine.includes(fullPath) ? firstLine : `${shownPath}: ${firstLine}`
  return new MeshError(error.kind, error.code, message, {field: error.field, cause: error})
}

export default class AgentUp extends MeshCommand {
  static override description = `Keep an agent online: every interval (under 5 minutes) get a token, then push the DiscoveryCard.

The card file is re-read before every heartbeat, so edits propagate on the next one. Survives registry restarts (retries with backoff). On a terminal: one status line; on a pipe or with --json: one NDJSON event per line (heartbeat, retry, card_invalid, stopped). Stops on Ctrl-C.`

  static override examples = [
    '<%= config.bin %> agent up --card card.json',
    '<%= config.bin %> agent up --card card.yaml --agent my-agent --interval 60',
    'MESH_API_KEY=… <%= config.bin %> agent up --card card.json --agent my-agent --once',
  ]

  static override flags = {
    card: Flags.string({char: 'c', description: 'DiscoveryCard file (JSON, or YAML by extension)', required: true}),
    agent: Flags.string({char: 'a', description: 'agent id (default: the only agent registered from here)'}),
    registry: Flags.string({description: `registry base URL (default: where the agent was registered, else ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
    interval: Flags.integer({description: 'seconds between heartbeats (spec: under 5 minutes)', default: 120, min: 5, max: 290}),
    credentials: Flags.string({description: "folder of file-stored secrets (default: the project's .mesh/credentials, found from any subfolder; identities in agents/ beside a credentials/ folder, else inside it)"}),
    once: Flags.boolean({description: 'send one heartbeat and exit', default: false}),
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(AgentUp)
    const [{createRegistryClient}, {credentialsDir}, {resolveAgentLogin}, {runHeartbeat}, {loadCardFile}] = await Promise.all([
      import('../../client/registry/registry-client.js'),
      import('../../agent/credentials.js'),
      import('../../agent/api-key.js'),
      import('../../agent/heartbeat.js'),
      import('../../agent/card-file.js'),
    ])
    const cardPath = resolve(flags.card)
    if (flags.agent !== undefined) assertAgentId(flags.agent, '--agent')
    // Fail fast on a bad card, before touching credentials or the network.
    if (!(await stat(cardPath).catch(() => null))) {
      throw new MeshError('invalid', 'usage_card_not_found', `The card file ${cardPath} does not exist; pass --card <card.json|card.yaml>`)
    }
    const loadCard = () => loadCardFile(cardPath).catch((error: unknown) => Promise.reject(cardError(error, flags.card, cardPath)))
    await loadCard()
    const dir = await assertCredentialsDir(await credentialsDir(flags.credentials))
    const {agentId, registry, apiKey} = await resolveAgentLogin({dir, agent: flags.agent, registry: flags.registry})

    const pretty = stdoutIsTTY() && !this.jsonEnabled()
    const controller = new AbortController()
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    // The terminal status line is rewritten in place; an error must start on a fresh line after it.
    let statusLineOpen = false
    const write = (line: string) => {
      statusLineOpen = !line.endsWith('\n')
      process.stdout.write(line)
    }
    // --once is for scripts and cron: the first failed beat is the answer, not a reason to retry forever.
    let onceFailure: {code: string; message: string} | undefined
    const result = await runHeartbeat({
      client: createRegistryClient({registry}),
      agentId,
      apiKey,
      loadCard,
      intervalMs: flags.interval * 1000,
      once: flags.once,
      signal: controller.signal,
      onEvent(event) {
        if (flags.once && event.event === 'retry') {
          onceFailure = event.error
          controller.abort()
          return
        }
        if (!pretty) return void write(JSON.stringify(event) + '\n')
        const time = event.at.slice(11, 19)
        if (event.event === 'heartbeat') {
          const warn = event.warnings ? ` · ⚠ ${printable(event.warnings.join('; '))}` : ''
          write(`\r\x1b[2K\x1b[32m●\x1b[0m ${agentId} online on ${registry} · heartbeat #${event.beat} at ${time}${event.next_in_ms ? ` · next in ${Math.round(event.next_in_ms / 1000)} s` : ''}${warn}`)
        } else if (event.event === 'retry') {
          write(`\r\x1b[2K\x1b[33m●\x1b[0m ${agentId}: ${printable(event.error.message)} · retry ${event.attempt} in ${Math.ceil(event.next_in_ms / 1000)} s`)
        } else if (event.event === 'card_invalid') {
          write(`\r\x1b[2K\x1b[33m!\x1b[0m ${printable(event.error.message)} (still pushing the last good card)\n`)
        } else {
          write(`\r\x1b[2K${agentId} stopped after ${event.beats} heartbeat${event.beats === 1 ? '' : 's'}\n`)
        }
      },
    }).finally(() => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      if (statusLineOpen) process.stdout.write('\n')
    })
    if (onceFailure) {
      throw new MeshError('unavailable', onceFailure.code, onceFailure.message)
    }
    // Events were the output; under --json nothing else is printed.
    if (this.jsonEnabled()) process.exit(0)
    return {agent_id: agentId, registry, beats: result.beats}
  }
}
