import {Args, Flags} from '@oclif/core'
import {assertAgentId} from '../../cli/agent-id.js'
import {MeshCommand} from '../../cli/base-command.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../../client/registry/search-client.js'
import {MeshError} from '../../lib/errors.js'

export default class CardMcpServerJson extends MeshCommand {
  static override description = `Print the MCP Registry server.json of a registered agent: its /mcp endpoint as a remote "streamable-http" server (schema 2025-12-11), from the card the registry last fetched. Agents served by the kit (createAgent, mesh agent serve) declare it in contact.mcp.`

  static override examples = ['<%= config.bin %> card mcp-server-json my-agent > server.json', '<%= config.bin %> card mcp-server-json my-agent --registry https://registry.example']

  static override args = {agent_id: Args.string({description: 'agent id', required: true})}

  static override flags = {
    registry: Flags.string({description: `registry base URL (default ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
  }

  async run() {
    const {args, flags} = await this.parse(CardMcpServerJson)
    const [{createRegistryClient, resolveRegistryUrl}, {mcpServerJson}] = await Promise.all([import('../../client/registry/registry-client.js'), import('../../agent/mcp-config.js')])
    const record = await createRegistryClient({registry: resolveRegistryUrl(flags.registry)}).getAgent(assertAgentId(args.agent_id))
    const card = record.agent_card as {version?: unknown; contact?: {mcp?: unknown}} | null
    const mcpUrl = card?.contact?.mcp
    if (typeof mcpUrl !== 'string') {
      throw new MeshError('not_found', 'no_mcp_endpoint', card ? `${record.agent_id}'s card declares no MCP endpoint (contact.mcp); agents served by mesh's kit do` : `The registry has not fetched ${record.agent_id}'s card yet`)
    }
    const serverJson = mcpServerJson({
      agentId: record.agent_id,
      title: record.display_name,
      description: record.description,
      version: typeof card?.version === 'string' ? card.version : '0.0.0',
      mcpUrl,
    })
    // server.json is the output whether or not --json is given: it is JSON, meant for a file.
    if (!this.jsonEnabled()) this.log(JSON.stringify(serverJson, null, 2))
    return serverJson
  }
}
