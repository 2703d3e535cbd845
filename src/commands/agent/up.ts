import {resolve} from 'node:path'
import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../../client/search-client.js'
import {MeshError} from '../../lib/errors.js'

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
    credentials: Flags.string({description: 'folder of file-stored secrets and agents.json (default .mesh/credentials)'}),
    once: Flags.boolean({description: 'send one heartbeat and exit', default: false}),
  }

  async run() {
    const {flags} = await this.parse(AgentUp)
    const [{createRegistryClient, resolveRegistryUrl}, {openSecretStore}, creds, {runHeartbeat}, {loadCardFile}] = await Promise.all([
      import('../../client/registry-client.js'),
      import('../../identity/secrets.js'),
      import('../../registry/credentials.js'),
      import('../../registry/heartbeat.js'),
      import('../../registry/card-file.js'),
    ])
    const cardPath = resolve(flags.card)
    // Fail fast on a bad card, before touching credentials or the network.
    await loadCardFile(cardPath)
    const dir = creds.credentialsDir(flags.credentials)
    const {agentId, profile} = await creds.resolveAgentId(dir, flags.agent)
    const registry = resolveRegistryUrl(flags.registry ?? profile?.registry)
    let apiKey = process.env[creds.API_KEY_ENV]
    if (!apiKey) {
      const store = await openSecretStore({dir})
      apiKey = (await store.get(creds.apiKeyName(agentId, registry))) ?? undefined
      if (!apiKey) {
        throw new MeshError('invalid', 'usage_no_api_key', `No api_key for ${agentId} on ${registry} in ${store.location}; run \`mesh register ${agentId}\` or set ${creds.API_KEY_ENV}`)
      }
    }

    const pretty = stdoutIsTTY() && !this.jsonEnabled()
    const controller = new AbortController()
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    const write = (line: string) => process.stdout.write(line)
    const result = await runHeartbeat({
      client: createRegistryClient({registry}),
      agentId,
      apiKey,
      loadCard: () => loadCardFile(cardPath),
      intervalMs: flags.interval * 1000,
      once: flags.once,
      signal: controller.signal,
      onEvent(event) {
        if (!pretty) return void write(JSON.stringify(event) + '\n')
        const time = event.at.slice(11, 19)
        if (event.event === 'heartbeat') {
          const warn = event.warnings ? ` · ⚠ ${event.warnings.join('; ')}` : ''
          write(`\r\x1b[2K\x1b[32m●\x1b[0m ${agentId} online on ${registry} · heartbeat #${event.beat} at ${time}${event.next_in_ms ? ` · next in ${Math.round(event.next_in_ms / 1000)} s` : ''}${warn}`)
        } else if (event.event === 'retry') {
          write(`\r\x1b[2K\x1b[33m●\x1b[0m ${agentId}: ${event.error.message} · retry ${event.attempt} in ${Math.ceil(event.next_in_ms / 1000)} s`)
        } else if (event.event === 'card_invalid') {
          write(`\r\x1b[2K\x1b[33m!\x1b[0m ${flags.card}: ${event.error.message} (still pushing the last good card)\n`)
        } else {
          write(`\r\x1b[2K${agentId} stopped after ${event.beats} heartbeat${event.beats === 1 ? '' : 's'}\n`)
        }
      },
    }).finally(() => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    })
    // Events were the output; under --json nothing else is printed.
    if (this.jsonEnabled()) process.exit(0)
    return {agent_id: agentId, registry, beats: result.beats}
  }
}
