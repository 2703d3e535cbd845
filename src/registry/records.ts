/**
 * The wire views of an agent: directory record, identity attestation,
 * network item and site DiscoveryCard. Liveness is derived from last_seen at
 * read time (DECISIONS Liveness), never stored.
 */
import {didKeyFromPublicKey} from '../identity/did-key.js'
import {ONLINE_WINDOW_MS} from './constants.js'
import type {AgentPatch, AgentRecord, CardFetchFailure, JsonObject, LiveCheck, OwnerClass} from './types.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** spec: online once a heartbeat arrived; offline after 5 minutes without one. */
export const isOnline = (agent: AgentRecord, nowMs: number) => isOnlineAt(agent.lastSeenMs, nowMs)

/** The same rule on a bare watermark. */
export const isOnlineAt = (lastSeenMs: number | null, nowMs: number) => lastSeenMs !== null && nowMs - lastSeenMs < ONLINE_WINDOW_MS

/** The oldest watermark that still counts as online at `nowMs`. */
export const onlineSince = (nowMs: number) => nowMs - ONLINE_WINDOW_MS + 1

export const handleOf = (publicUrl: string, agentId: string) => `${publicUrl}/agent/${encodeURIComponent(agentId)}`

export const didOf = (agent: AgentRecord) => (agent.pubkey ? didKeyFromPublicKey(agent.pubkey) : null)

/**
 * True when two JSON values serialize to the same text: same types, same
 * keys in the same order, equal leaves. Walks instead of serializing both
 * (the heartbeat compares its card with the stored one on every push).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  // Same keys in the same order: walk b's keys against a's (JSON objects have no inherited enumerables).
  const aKeys = Object.keys(a)
  let i = 0
  for (const key in b) {
    if (key !== aKeys[i++] || !sameJson((a as JsonObject)[key], (b as JsonObject)[key])) return false
  }
  return i === aKeys.length
}

/**
 * True when the patch would leave `agent` byte-identical (every set field
 * serializes to the same JSON as the stored one): the heartbeat's repeated
 * card, which then needs neither a write nor an `agent.card` event. False
 * means "maybe changed" (the store compares again, as it stores values).
 */
export function patchKeeps(agent: AgentRecord, patch: AgentPatch): boolean {
  for (const field in patch) {
    const value = patch[field as keyof AgentPatch]
    if (value !== undefined && !sameJson(agent[field as keyof AgentPatch], value)) return false
  }
  return true
}

/** The prober's last liveness reading, or null before the first probe (docs/search-and-probes.md `live_check`). */
export const liveCheckOf = (agent: AgentRecord): LiveCheck | null => agent.probe?.live_check ?? null

/** When the cached PublicCard was fetched (results saved before `card_fetched_at` existed fetched it at `probed_at`). */
export const cardFetchedAtOf = (agent: AgentRecord): string | null =>
  agent.probe?.card ? (agent.probe.card_fetched_at ?? agent.probe.probed_at) : null

/** spec Discovery qualities + DECISIONS: the directory record of `GET /v1/agents/<id>`. */
export interface DirectoryRecord {
  agent_id: string
  display_name: string
  owner_class: OwnerClass
  brand: string | null
  description: string | null
  capabilities: string[]
  online: boolean
  live: 0 | 1
  last_seen: string | null
  registered: string
  endpoint: string | null
  handle: string
  pubkey: string | null
  did: string | null
  verified: boolean
  operational: boolean | null
  card_match: string | null
  probed_at: string | null
  /** How the last probe judged liveness (`/health`, else availability.now); null before the first probe. */
  live_check: LiveCheck | null
  /** When the cached PublicCard (served at the well-known route) was fetched; null when none ever was. */
  card_fetched_at: string | null
  /** The latest failed card fetch since then; null when the latest fetch succeeded. */
  card_error: CardFetchFailure | null
  agent_card: JsonObject | null
}

export function directoryRecord(agent: AgentRecord, nowMs: number, publicUrl: string): DirectoryRecord {
  const online = isOnline(agent, nowMs)
  return {
    agent_id: agent.agentId,
    // spec: without a hoisted name the agent appears under its raw agent_id.
    display_name: agent.displayName ?? agent.agentId,
    owner_class: agent.ownerClass,
    brand: agent.brand,
    description: agent.description,
    capabilities: agent.capabilities,
    online,
    live: online ? 1 : 0,
    last_seen: iso(agent.lastSeenMs),
    registered: new Date(agent.createdAtMs).toISOString(),
    endpoint: agent.endpoint,
    handle: handleOf(publicUrl, agent.agentId),
    pubkey: agent.pubkey,
    did: didOf(agent),
    // A key is only ever bound with a valid Mesh-Sig proof from it.
    verified: agent.pubkey !== null,
    operational: agent.probe?.operational ?? null,
    card_match: agent.probe?.card_match ?? null,
    probed_at: agent.probe?.probed_at ?? null,
    live_check: liveCheckOf(agent),
    card_fetched_at: cardFetchedAtOf(agent),
    card_error: agent.probe?.card_error ?? null,
    agent_card: agent.agentCard,
  }
}

/** spec Identity attestation. */
export function identityAttestation(agent: AgentRecord, nowMs: number, publicUrl: string) {
  return {
    agent_id: agent.agentId,
    handle: handleOf(publicUrl, agent.agentId),
    pubkey: agent.pubkey,
    did: didOf(agent),
    verified: agent.pubkey !== null,
    endpoint: agent.endpoint,
    registered: new Date(agent.createdAtMs).toISOString(),
    online: isOnline(agent, nowMs),
  }
}

/** One entry of `/platform/network`: the hoisted fields; offline agents stay listed, marked offline. */
export function networkItem(agent: AgentRecord, nowMs: number) {
  const online = isOnline(agent, nowMs)
  const card = agent.agentCard ?? {}
  return {
    agent_id: agent.agentId,
    display_name: agent.displayName ?? agent.agentId,
    owner_class: agent.ownerClass,
    brand: agent.brand,
    category: typeof card.category === 'string' ? card.category : null,
    description: agent.description,
    capabilities: agent.capabilities,
    online,
    live: online ? 1 : 0,
    last_seen: iso(agent.lastSeenMs),
    endpoint: agent.endpoint,
    did: didOf(agent),
    verified: agent.pubkey !== null,
    operational: agent.probe?.operational ?? null,
    live_check: liveCheckOf(agent),
  }
}

/** The DiscoveryCard the site serves: the pushed card, or a minimal one before the first push. */
export function siteCard(agent: AgentRecord): JsonObject {
  if (agent.agentCard) return agent.agentCard
  const card: JsonObject = {name: agent.displayName ?? agent.agentId, tags: agent.capabilities, owner_class: agent.ownerClass}
  if (agent.endpoint) card.endpoint = agent.endpoint
  if (agent.description) card.description = agent.description
  return card
}
