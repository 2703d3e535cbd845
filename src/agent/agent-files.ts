/**
 * This machine's identity of each local agent, where the standard puts it:
 * `.mesh/agents/<id>.yaml` (spec Folder layout: per machine, never committed)
 * — its id, public key, did, the reference of its key in the secret store and
 * the registry it registered with. The secrets themselves stay in the OS
 * keychain or 0600 files under `credentials/` (src/identity/secrets.ts).
 * `.mesh/agents/clients.yaml` (the daemon's clients, docs/daemon.md) shares the
 * folder, so no agent may be called `clients`.
 *
 * The older `credentials/agents.json` is migrated once, on first read: each
 * agent it lists gets its file (an existing file is kept), then it is renamed
 * `agents.json.migrated`. docs/network.md, Identity.
 */
import {mkdir, readdir, readFile, rename} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'
import {parse, stringify} from 'yaml'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {MeshError} from '../lib/errors.js'
import type {SecretBackend} from '../identity/secrets.js'

/** What mesh keeps of a registered agent on this machine (the shape commands read). */
export interface AgentProfile {
  registry: string
  pubkey: string | null
  did: string | null
  handle: string
  secrets: SecretBackend
  registered_at: string
}

/** The file of the daemon's clients, beside the agents' files: its name is not an agent's. */
const CLIENTS_STEM = 'clients'
const LEGACY_FILE = 'agents.json'
const MIGRATED_SUFFIX = '.migrated'

/**
 * The agents folder of a credentials folder: its sibling `agents/` when it is
 * a `credentials/` folder, as in `.mesh/` (`.mesh/credentials/` →
 * `.mesh/agents/`); inside it otherwise, so a folder given with
 * `--credentials` is self-contained and two of them never share identities.
 */
export const agentsDirOf = (credentialsDir: string) => (basename(credentialsDir) === 'credentials' ? join(dirname(credentialsDir), 'agents') : join(credentialsDir, 'agents'))

/** Refuses the one id that would take the clients file's place, before anything is registered. */
export function assertLocalAgentId(agentId: string, what = 'agent_id'): string {
  if (agentId.toLowerCase() === CLIENTS_STEM) {
    throw new MeshError('invalid', 'usage_agent_id_reserved', `${what} "${agentId}" is reserved: .mesh/agents/clients.yaml holds this machine's agent clients (docs/daemon.md, Clients), so no agent may be called "clients"; choose another id`, {field: what})
  }
  return agentId
}

/** Secret name of an agent's Ed25519 private key (one identity per agent id, whatever the registry), as its file references it. */
export const identityKeyName = (agentId: string) => `identity.${agentId}`

function fileText(agentId: string, profile: AgentProfile): string {
  const document = {
    id: agentId,
    pubkey: profile.pubkey,
    did: profile.did,
    // A reference, never the key: where the private key is kept and under which name.
    key: {store: profile.secrets, name: identityKeyName(agentId)},
    registry: profile.registry,
    handle: profile.handle,
    registered_at: profile.registered_at,
  }
  return `# This machine's identity of agent ${agentId} (mesh standard: agents/<id>.yaml; per machine, never committed).\n# The private key and the api key are not here: they stay in the ${profile.secrets === 'keychain' ? 'OS keychain' : '0600 files of .mesh/credentials/'}.\n${stringify(document)}`
}

function profileOf(path: string, text: string): [string, AgentProfile] {
  let data: Record<string, unknown>
  try {
    data = parse(text) as Record<string, unknown>
  } catch (error) {
    throw new MeshError('invalid', 'credentials_unreadable', `${path} is not readable YAML: ${(error as Error).message.split('\n')[0]}`)
  }
  const id = basename(path, '.yaml')
  if (!data || typeof data !== 'object' || typeof data.registry !== 'string') throw new MeshError('invalid', 'credentials_unreadable', `${path} is not an agent identity (no registry); register ${id} again`)
  const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null)
  const key = (data.key && typeof data.key === 'object' ? data.key : {}) as Record<string, unknown>
  return [
    id,
    {
      registry: data.registry,
      pubkey: stringOrNull(data.pubkey),
      did: stringOrNull(data.did),
      handle: stringOrNull(data.handle) ?? id,
      secrets: key.store === 'file' ? 'file' : 'keychain',
      registered_at: stringOrNull(data.registered_at) ?? '',
    },
  ]
}

/** Moves `credentials/agents.json` into `agents/<id>.yaml` files, once (see the file's comment). */
export async function migrateLegacyProfiles(credentialsDir: string): Promise<{migrated: string[]; skipped: string[]} | null> {
  const legacy = join(credentialsDir, LEGACY_FILE)
  let text: string
  try {
    text = await readFile(legacy, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  let agents: Record<string, AgentProfile>
  try {
    const parsed = JSON.parse(text) as {agents?: Record<string, AgentProfile>}
    agents = parsed && typeof parsed.agents === 'object' && parsed.agents ? parsed.agents : {}
  } catch (error) {
    throw new MeshError('invalid', 'credentials_unreadable', `${legacy} is not readable JSON: ${(error as Error).message}; fix or remove it (mesh moves it to .mesh/agents/<id>.yaml)`)
  }
  const dir = agentsDirOf(credentialsDir)
  await mkdir(dir, {recursive: true, mode: 0o700})
  const existing = new Set(await readdir(dir).catch(() => [] as string[]))
  const migrated: string[] = []
  const skipped: string[] = []
  for (const [id, profile] of Object.entries(agents)) {
    // A `clients` agent cannot have its file there; its keys stay in the secret store (register it under another id).
    if (id.toLowerCase() === CLIENTS_STEM || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
      skipped.push(id)
      continue
    }
    if (!existing.has(`${id}.yaml`)) await writeFileAtomic(join(dir, `${id}.yaml`), fileText(id, profile), {mode: 0o600})
    migrated.push(id)
  }
  // Renamed last: a crash before it migrates again, keeping the files already written.
  await rename(legacy, legacy + MIGRATED_SUFFIX)
  return {migrated, skipped}
}

/** Every local agent's profile, by id (after the one-time migration). */
export async function readProfiles(credentialsDir: string): Promise<Record<string, AgentProfile>> {
  await migrateLegacyProfiles(credentialsDir)
  const dir = agentsDirOf(credentialsDir)
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? [] : Promise.reject(error)))
  const profiles: Record<string, AgentProfile> = {}
  for (const name of names.sort()) {
    if (!name.endsWith('.yaml') || name === `${CLIENTS_STEM}.yaml` || name.startsWith('.')) continue
    const path = join(dir, name)
    const [id, profile] = profileOf(path, await readFile(path, 'utf8'))
    profiles[id] = profile
  }
  return profiles
}

/** Writes `agents/<id>.yaml` (0600: it names where the keys are). */
export async function saveProfile(credentialsDir: string, agentId: string, profile: AgentProfile): Promise<string> {
  assertLocalAgentId(agentId)
  // Per machine, like credentials/: the folder is the operator's alone.
  await mkdir(agentsDirOf(credentialsDir), {recursive: true, mode: 0o700})
  const path = join(agentsDirOf(credentialsDir), `${agentId}.yaml`)
  await writeFileAtomic(path, fileText(agentId, profile), {mode: 0o600})
  return path
}
