/**
 * Agent-side local credentials for the CLI: where they are (the project's
 * `.mesh/credentials/`, found from any subfolder), which secret names hold an
 * agent's identity key and api key, and which agent a command acts as. Each
 * agent's non-secret identity is its `.mesh/agents/<id>.yaml` (./agent-files.ts);
 * the secrets go through src/identity/secrets.ts (keychain or 0600 files).
 */
import {resolve} from 'node:path'
import {MeshError} from '../lib/errors.js'
import {findUpFolder} from '../lib/find-up.js'
import {exportPublicKey, generateIdentityKeyPair, importPrivateKey} from '../identity/keys.js'
import type {SecretStore} from '../identity/secrets.js'
import {identityKeyName, readProfiles, type AgentProfile} from './agent-files.js'

export {agentsDirOf, assertLocalAgentId, identityKeyName, migrateLegacyProfiles, readProfiles, saveProfile, type AgentProfile} from './agent-files.js'

/** DECISIONS/project standard: credentials live under `.mesh/credentials/` (never committed). */
export const DEFAULT_CREDENTIALS_DIR = '.mesh/credentials'
export const CREDENTIALS_ENV = 'MESH_CREDENTIALS_DIR'
/** An api key given in the environment wins over the stored one (containers, CI). */
export const API_KEY_ENV = 'MESH_API_KEY'

/**
 * The credentials folder: the flag, else MESH_CREDENTIALS_DIR, else the
 * `.mesh/credentials/` of the project holding the current folder (found
 * upward, as git finds `.git`: a command in a subfolder makes no stray
 * `.mesh/` there), else `./.mesh/credentials` outside any project.
 */
export async function credentialsDir(flag?: string, cwd: string = process.cwd()): Promise<string> {
  const given = flag || process.env[CREDENTIALS_ENV]
  if (given) return resolve(cwd, given)
  const root = (await findUpFolder(cwd, '.mesh')) ?? cwd
  return resolve(root, DEFAULT_CREDENTIALS_DIR)
}

/** Secret name of an agent's api key on one registry. */
export const apiKeyName = (agentId: string, registry: string) => `api_key.${agentId}@${new URL(registry).host}`

/** The agent to act as: the flag, else the only registered one; a clear usage error otherwise. */
export async function resolveAgentId(dir: string, flag?: string): Promise<{agentId: string; profile: AgentProfile | null}> {
  const agents = await readProfiles(dir)
  if (flag) return {agentId: flag, profile: agents[flag] ?? null}
  const ids = Object.keys(agents)
  if (ids.length === 1) return {agentId: ids[0], profile: agents[ids[0]]}
  if (ids.length === 0) {
    throw new MeshError('invalid', 'usage_no_agent', `No agent registered from here (${dir}); run \`mesh register <agent_id>\` or pass --agent`)
  }
  throw new MeshError('invalid', 'usage_agent_ambiguous', `Several agents are registered (${ids.join(', ')}); pass --agent <id>`)
}

/**
 * An agent's identity key from the secret store, created when there is none
 * and saved before it is used, so a crash while registering never loses a
 * key the registry has bound. Shared by `mesh register` and `mesh agent serve`.
 */
export async function identityKeyOf(store: SecretStore, agentId: string): Promise<{pem: string; pubkey: string; created: boolean}> {
  let pem = await store.get(identityKeyName(agentId))
  const created = pem === null
  if (pem === null) {
    pem = generateIdentityKeyPair().privateKeyPem
    await store.set(identityKeyName(agentId), pem)
  }
  try {
    return {pem, pubkey: exportPublicKey(importPrivateKey(pem)), created}
  } catch {
    // Never echo key material: say where it is and what to do.
    throw new MeshError('invalid', 'identity_key_unreadable', `The identity key of ${agentId} in ${store.location} is not an Ed25519 private key (PKCS#8 PEM); restore it from a backup (a new key cannot take over an id already registered)`)
  }
}
