/**
 * Keeps a served agent listed on a registry (`mesh agent serve --registry`):
 * registers it if needed — with its own Ed25519 identity key bound by a
 * Mesh-Sig, the api_key and the key kept in the secret store exactly where
 * `mesh register` keeps them — then runs the heartbeat loop
 * (./heartbeat.ts) with the DiscoveryCard derived from its PublicCard
 * (spec: Registration record and credentials, Heartbeat procedure,
 * Authentication 1–3; DECISIONS: Lost api_key).
 */
import {setTimeout as sleepFor} from 'node:timers/promises'
import {createRegistryClient, type RegistryClient} from '../client/registry/registry-client.js'
import {openSecretStore, type SecretStore} from '../identity/secrets.js'
import {isMeshError, MeshError} from '../lib/errors.js'
import {apiKeyName, assertLocalAgentId, identityKeyOf, readProfiles, saveProfile} from './credentials.js'
import type {DiscoveryCard} from './discovery-card.js'
import {runHeartbeat, type HeartbeatEvent} from './heartbeat.js'

/** What the registration step reports, beside the heartbeat's own events. */
export type RegistrationEvent =
  | {
      event: 'registered'
      agent_id: string
      at: string
      registry: string
      handle: string
      did: string | null
      verified: boolean
      /** true: the id was ours already (same identity key) and its api_key was rotated. */
      rotated: boolean
      identity_key: 'created' | 'reused'
      /** Where the api_key and the identity key are kept (never the secrets themselves). */
      secrets: string
    }
  | {event: 'retry'; step: 'register'; agent_id: string; at: string; attempt: number; error: {code: string; message: string}; next_in_ms: number}
  /** The stored api_key was refused (a registry reset, a key rotated elsewhere): registering again with the identity key. */
  | {event: 'credentials_rejected'; agent_id: string; at: string; error: {code: string; message: string}}

export type ServedAgentEvent = RegistrationEvent | HeartbeatEvent

export interface KeepRegisteredOptions {
  /** Registry base URL. */
  registry: string
  agentId: string
  /** The credentials folder (`--credentials`): file secrets, with the identity files in its sibling `agents/`, as `mesh register` uses them. */
  credentialsDir: string
  /** The DiscoveryCard to push; read before every beat. Its `endpoint`, `tags` and `description` also go into the registration. */
  loadCard: () => Promise<DiscoveryCard> | DiscoveryCard
  /** Time between beats, ms (spec: under 5 minutes). */
  intervalMs: number
  signal: AbortSignal
  onEvent: (event: ServedAgentEvent) => void
  /** An api_key given by the operator (MESH_API_KEY): used as is, never replaced by registering. */
  apiKey?: string
  /** Injected in tests; default the registry's HTTP client and the secret store in `credentialsDir`. */
  client?: Pick<RegistryClient, 'register' | 'token' | 'patchMe'>
  store?: SecretStore
  maxBackoffMs?: number
  clock?: () => number
  random?: () => number
}

/** Errors a retry can fix: the registry is down, slow or busy. Anything else stops the loop. */
const isTransient = (error: unknown) => !isMeshError(error) || error.kind === 'unavailable' || error.kind === 'rate_limited' || error.kind === 'internal'

const errorOf = (error: unknown) =>
  isMeshError(error) ? {code: error.code, message: error.message} : {code: 'register_failed', message: String((error as Error)?.message ?? error)}

/**
 * Registers the agent (or rotates its api_key when the id is already bound
 * to this identity key) and stores the api_key and the profile. Returns the
 * api_key. Throws `agent_exists` with what to do when another key owns the id.
 */
async function register(options: KeepRegisteredOptions, client: NonNullable<KeepRegisteredOptions['client']>, store: SecretStore, at: () => string): Promise<string> {
  const card = await options.loadCard()
  const key = await identityKeyOf(store, options.agentId)
  let answer
  try {
    answer = await client.register(
      {
        agent_id: options.agentId,
        pubkey: key.pubkey,
        endpoint: card.endpoint,
        // spec: capabilities equal the tags.
        ...(card.tags ? {capabilities: card.tags} : {}),
        description: card.description,
      },
      key.pem,
    )
  } catch (error) {
    if (isMeshError(error) && error.code === 'agent_exists') {
      throw new MeshError('conflict', 'agent_exists', `The agent id "${options.agentId}" is already registered on ${options.registry} with another identity key; choose another id with --agent-id, or restore the identity key of ${options.agentId} into ${store.location}`, {field: 'agent_id'})
    }
    throw error
  }
  try {
    await store.set(apiKeyName(options.agentId, options.registry), answer.api_key)
  } catch (error) {
    throw new MeshError('internal', 'secret_store_failed', `Registered ${options.agentId}, but its api_key could not be stored in ${store.location} (${(error as Error).message}); start again to rotate it`)
  }
  await saveProfile(options.credentialsDir, options.agentId, {
    registry: options.registry,
    pubkey: answer.pubkey ?? key.pubkey,
    did: answer.did ?? null,
    handle: answer.handle,
    secrets: store.backend,
    registered_at: at(),
  })
  options.onEvent({
    event: 'registered',
    agent_id: options.agentId,
    at: at(),
    registry: options.registry,
    handle: answer.handle,
    did: answer.did ?? null,
    verified: answer.verified,
    rotated: answer.rotated,
    identity_key: key.created ? 'created' : 'reused',
    secrets: store.location,
  })
  return answer.api_key
}

/**
 * Registers if needed, then beats until `signal` aborts. A registry that is
 * down or busy is retried with capped, jittered backoff (registration and
 * heartbeat alike); a stored api_key the registry refuses is replaced once by
 * registering again with the identity key. Throws a MeshError on what no
 * retry can fix: the id owned by another key, a refused card, an api_key
 * from MESH_API_KEY that is wrong.
 */
export async function keepRegistered(options: KeepRegisteredOptions): Promise<{beats: number}> {
  const clock = options.clock ?? Date.now
  const random = options.random ?? Math.random
  const maxBackoff = options.maxBackoffMs ?? 30_000
  const at = () => new Date(clock()).toISOString()
  const client = options.client ?? createRegistryClient({registry: options.registry})
  assertLocalAgentId(options.agentId, '--agent-id')
  // An unreadable identity file must stop us before the registry hands out an api_key we could not record.
  await readProfiles(options.credentialsDir)
  const store = options.store ?? (await openSecretStore({dir: options.credentialsDir}))
  let apiKey = options.apiKey ?? (await store.get(apiKeyName(options.agentId, options.registry)))
  let reRegistered = false
  let beats = 0
  // The heartbeat's own events pass through, counted; its "stopped" is replaced by one for the whole run.
  const onBeatEvent = (event: HeartbeatEvent) => {
    if (event.event === 'stopped') return
    if (event.event === 'heartbeat') {
      beats++
      // The replaced key works: a later refusal (another registry reset) may be repaired again.
      reRegistered = false
    }
    options.onEvent(event.event === 'heartbeat' ? {...event, beat: beats} : event)
  }

  while (!options.signal.aborted) {
    if (apiKey === null) {
      for (let attempt = 1; apiKey === null && !options.signal.aborted; attempt++) {
        try {
          apiKey = await register(options, client, store, at)
        } catch (error) {
          if (!isTransient(error)) throw error
          const retryAfter = isMeshError(error) && typeof error.details?.retry_after === 'number' ? error.details.retry_after * 1000 : 0
          const delay = Math.max(retryAfter, Math.round(Math.min(maxBackoff, 1000 * 2 ** Math.min(attempt - 1, 10)) * (0.5 + random() / 2)))
          options.onEvent({event: 'retry', step: 'register', agent_id: options.agentId, at: at(), attempt, error: errorOf(error), next_in_ms: delay})
          await sleepFor(delay, undefined, {signal: options.signal}).catch(() => undefined)
        }
      }
      if (apiKey === null) break
    }
    try {
      await runHeartbeat({
        client,
        agentId: options.agentId,
        apiKey,
        loadCard: async () => (await options.loadCard()) as unknown as Record<string, unknown>,
        intervalMs: options.intervalMs,
        signal: options.signal,
        onEvent: onBeatEvent,
        maxBackoffMs: maxBackoff,
        clock,
        random,
      })
    } catch (error) {
      // A key from the environment is the operator's to fix; a stored one we can replace (once per working key).
      if (!isMeshError(error) || error.code !== 'invalid_credentials' || options.apiKey !== undefined || reRegistered) throw error
      reRegistered = true
      options.onEvent({event: 'credentials_rejected', agent_id: options.agentId, at: at(), error: errorOf(error)})
      apiKey = null
    }
  }
  options.onEvent({event: 'stopped', agent_id: options.agentId, at: at(), beats})
  return {beats}
}
