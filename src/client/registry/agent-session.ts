/**
 * Who the inbox commands act as: the agent registered from here by
 * `mesh register` (profile + api key in the secret store), a fresh token
 * from its registry. Loads nothing heavy.
 */
import {createRegistryClient} from './registry-client.js'
import {resolveRegistryUrl} from './search-client.js'
import {openSecretStore} from '../../identity/secrets.js'
import {MeshError} from '../../lib/errors.js'
import {API_KEY_ENV, apiKeyName, credentialsDir, resolveAgentId} from '../../agent/credentials.js'

export interface SessionFlags {
  /** --registry (or MESH_REGISTRY); default: the registry the agent registered with. */
  registry?: string
  /** --agent; default: the only agent registered from here. */
  agent?: string
  /** --credentials; default MESH_CREDENTIALS_DIR or .mesh/credentials. */
  credentials?: string
}

export interface AgentSession {
  registry: string
  agentId: string
  /** A fresh 24 h JWT. */
  token: string
  /** Mints a new token (long-running watch reconnecting after a day). */
  refresh(): Promise<string>
}

/** Resolves the agent and its registry, reads the api key and exchanges it for a token. */
export async function openAgentSession(flags: SessionFlags): Promise<AgentSession> {
  const dir = credentialsDir(flags.credentials)
  const {agentId, profile} = await resolveAgentId(dir, flags.agent)
  const registry = resolveRegistryUrl(flags.registry || profile?.registry)
  let apiKey = process.env[API_KEY_ENV]
  if (!apiKey) {
    const store = await openSecretStore({dir})
    apiKey = (await store.get(apiKeyName(agentId, registry))) ?? undefined
    if (!apiKey) {
      throw new MeshError('invalid', 'usage_no_api_key', `No api_key for ${agentId} on ${registry} in ${store.location}; run \`mesh register ${agentId} --registry ${registry}\` or set ${API_KEY_ENV}`)
    }
  }
  const key = apiKey
  const client = createRegistryClient({registry})
  const refresh = async () => (session.token = (await client.token(agentId, key)).token)
  const session: AgentSession = {registry, agentId, token: '', refresh}
  await refresh()
  return session
}
