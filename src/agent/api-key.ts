/**
 * Which agent a CLI command acts as, on which registry, with which api key:
 * the one lookup `mesh agent up` and the inbox commands share.
 */
import {resolveRegistryUrl} from '../client/registry/search-client.js'
import {openSecretStore} from '../identity/secrets.js'
import {MeshError} from '../lib/errors.js'
import {API_KEY_ENV, apiKeyName, resolveAgentId} from './credentials.js'

export interface AgentLogin {
  agentId: string
  /** The registry base URL: the flag, else where the agent registered, else the default. */
  registry: string
  apiKey: string
}

/**
 * Resolves the agent (the `--agent` flag or the only one in `.mesh/agents/`), its
 * registry and its api key: MESH_API_KEY wins (containers, CI), else the
 * secret store in `dir`; neither is a usage error that says how to fix it.
 */
export async function resolveAgentLogin(options: {dir: string; agent?: string; registry?: string}): Promise<AgentLogin> {
  const {agentId, profile} = await resolveAgentId(options.dir, options.agent)
  const registry = resolveRegistryUrl(options.registry || profile?.registry)
  const fromEnv = process.env[API_KEY_ENV]
  if (fromEnv) return {agentId, registry, apiKey: fromEnv}
  const store = await openSecretStore({dir: options.dir})
  const stored = await store.get(apiKeyName(agentId, registry))
  if (!stored) {
    throw new MeshError('invalid', 'usage_no_api_key', `No api_key for ${agentId} on ${registry} in ${store.location}; run \`mesh register ${agentId} --registry ${registry}\` or set ${API_KEY_ENV}`)
  }
  return {agentId, registry, apiKey: stored}
}
