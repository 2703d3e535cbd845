/**
 * Who the inbox commands act as: the agent registered from here by
 * `mesh register` (profile + api key in the secret store), a fresh token
 * from its registry. Loads nothing heavy.
 */
import {createRegistryClient, type RegistrySession} from '../client/registry/registry-client.js'
import {resolveAgentLogin} from './api-key.js'
import {credentialsDir} from './credentials.js'

export interface SessionFlags {
  /** --registry (or MESH_REGISTRY); default: the registry the agent registered with. */
  registry?: string
  /** --agent; default: the only agent registered from here. */
  agent?: string
  /** --credentials; default MESH_CREDENTIALS_DIR or .mesh/credentials. */
  credentials?: string
}

export type AgentSession = RegistrySession

/** Resolves the agent and its registry, reads the api key and exchanges it for a token. */
export async function openAgentSession(flags: SessionFlags): Promise<AgentSession> {
  const {agentId, registry, apiKey} = await resolveAgentLogin({dir: await credentialsDir(flags.credentials), agent: flags.agent, registry: flags.registry})
  const client = createRegistryClient({registry})
  const refresh = async () => (session.token = (await client.token(agentId, apiKey)).token)
  const session: AgentSession = {registry, agentId, token: '', refresh}
  await refresh()
  return session
}
