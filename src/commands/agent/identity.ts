import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {assertAgentId} from '../../cli/agent-id.js'
import {shown} from '../../client/printable.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../../client/registry/search-client.js'

export default class AgentIdentity extends MeshCommand {
  static override description = "Show an agent's identity attestation: its registered Ed25519 key as did:key, handle, endpoint and whether the key was verified."

  static override examples = ['<%= config.bin %> agent identity my-agent', '<%= config.bin %> agent identity my-agent --json']

  static override args = {agent_id: Args.string({description: 'agent id', required: true})}

  static override flags = {
    registry: Flags.string({description: `registry base URL (default ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
  }

  async run() {
    const {args, flags} = await this.parse(AgentIdentity)
    const {createRegistryClient, resolveRegistryUrl} = await import('../../client/registry/registry-client.js')
    const attestation = await createRegistryClient({registry: resolveRegistryUrl(flags.registry)}).identity(assertAgentId(args.agent_id))
    if (!this.jsonEnabled()) {
      this.log(`agent_id    ${attestation.agent_id}`)
      this.log(`handle      ${shown(attestation.handle)}`)
      this.log(`did         ${shown(attestation.did ?? 'no key bound')}`)
      this.log(`pubkey      ${shown(attestation.pubkey ?? '—')}`)
      this.log(`verified    ${attestation.verified ? 'yes (bound with a signed proof)' : 'no'}`)
      this.log(`endpoint    ${shown(attestation.endpoint ?? '—')}`)
      this.log(`registered  ${shown(attestation.registered)}`)
      this.log(`online      ${attestation.online ? 'yes' : 'no'}`)
    }
    return attestation
  }
}
