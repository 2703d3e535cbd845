/**
 * Agent-side local credentials for the CLI: which secret names hold an
 * agent's identity key and api key, and a small non-secret profile file
 * (`agents.json`) that remembers which agents were registered where.
 * The secrets themselves go through src/identity/secrets.ts (keychain or 0600 files).
 */
import {readFile} from 'node:fs/promises'
import {join, resolve} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {MeshError} from '../lib/errors.js'
import {exportPublicKey, generateIdentityKeyPair, importPrivateKey} from '../identity/keys.js'
import type {SecretBackend, SecretStore} from '../identity/secrets.js'

/** DECISIONS/project standard: credentials live under `.mesh/credentials/` (never committed). */
export const DEFAULT_CREDENTIALS_DIR = '.mesh/credentials'
export const CREDENTIALS_ENV = 'MESH_CREDENTIALS_DIR'
/** An api key given in the environment wins over the stored one (containers, CI). */
export const API_KEY_ENV = 'MESH_API_KEY'
const PROFILE_FILE = 'agents.json'

export const credentialsDir = (flag?: string) => resolve(flag ?? process.env[CREDENTIALS_ENV] ?? DEFAULT_CREDENTIALS_DIR)

/** Secret name of an agent's Ed25519 private key (one identity per agent id, whatever the registry). */
export const identityKeyName = (agentId: string) => `identity.${agentId}`
/** Secret name of an agent's api key on one registry. */
export const apiKeyName = (agentId: string, registry: string) => `api_key.${agentId}@${new URL(registry).host}`

export interface AgentProfile {
  registry: string
  pubkey: string | null
  did: string | null
  handle: string
  secrets: SecretBackend
  registered_at: string
}

interface ProfileFile {
  version: 1
  agents: Record<string, AgentProfile>
}

export async function readProfiles(dir: string): Promise<Record<string, AgentProfile>> {
  try {
    const parsed = JSON.parse(await readFile(join(dir, PROFILE_FILE), 'utf8')) as Partial<ProfileFile>
    return parsed && typeof parsed.agents === 'object' && parsed.agents ? parsed.agents : {}
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new MeshError('invalid', 'credentials_unreadable', `${join(dir, PROFILE_FILE)} is not readable JSON: ${(error as Error).message}`)
  }
}

export async function saveProfile(dir: string, agentId: string, profile: AgentProfile): Promise<void> {
  const agents = await readProfiles(dir)
  agents[agentId] = profile
  const file: ProfileFile = {version: 1, agents}
  await writeFileAtomic(join(dir, PROFILE_FILE), JSON.stringify(file, null, 2) + '\n', {mode: 0o600})
}

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
