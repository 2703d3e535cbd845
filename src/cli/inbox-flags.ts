/** Flags every `mesh inbox` command shares: which agent, which registry, where its credentials are. */
import {Flags} from '@oclif/core'
import {REGISTRY_ENV} from '../client/registry/search-client.js'

export const sessionFlags = {
  registry: Flags.string({description: 'registry base URL (default: the one the agent registered with)', env: REGISTRY_ENV}),
  agent: Flags.string({char: 'a', description: 'agent to act as (default: the only agent registered from here)'}),
  credentials: Flags.string({description: 'credentials folder of `mesh register` (default $MESH_CREDENTIALS_DIR or .mesh/credentials)'}),
}
