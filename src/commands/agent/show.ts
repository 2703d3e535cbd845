import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {assertAgentId} from '../../cli/agent-id.js'
import {shown} from '../../client/printable.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../../client/registry/search-client.js'

export default class AgentShow extends MeshCommand {
  static override description = "Show an agent's directory record: liveness, hoisted card fields, identity and probe results."

  static override examples = ['<%= config.bin %> agent show my-agent', '<%= config.bin %> agent show my-agent --registry https://registry.example --json']

  static override args = {agent_id: Args.string({description: 'agent id', required: true})}

  static override flags = {
    registry: Flags.string({description: `registry base URL (default ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
  }

  async run() {
    const {args, flags} = await this.parse(AgentShow)
    const {createRegistryClient, resolveRegistryUrl} = await import('../../client/registry/registry-client.js')
    const record = await createRegistryClient({registry: resolveRegistryUrl(flags.registry)}).getAgent(assertAgentId(args.agent_id))
    if (!this.jsonEnabled()) {
      const rows: Array<[string, unknown]> = [
        ['agent_id', record.agent_id],
        ['name', record.display_name],
        ['status', record.online ? 'online' : 'offline'],
        ['last seen', record.last_seen ?? 'never'],
        ['owner', record.brand ? `${record.owner_class} · ${record.brand}` : record.owner_class],
        ['capabilities', record.capabilities.join(', ') || '—'],
        ['endpoint', record.endpoint ?? '—'],
        ['did', record.did ?? 'no key bound'],
        ['operational', record.operational === null ? 'not probed' : record.operational ? 'yes' : 'no'],
        ['card match', record.card_match ?? '—'],
        ['handle', record.handle],
      ]
      // Card fields are the agent's own input: shown without control characters.
      for (const [label, value] of rows) this.log(`${label.padEnd(13)} ${shown(value)}`)
      if (record.description) this.log(`\n${shown(record.description)}`)
    }
    return record
  }
}
