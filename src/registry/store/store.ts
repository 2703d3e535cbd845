/**
 * Durable state of the registry: agents, their cards and probe results,
 * used Mesh-Sig nonces and the deployment's shared secrets. One interface,
 * one implementation per file: in-memory here, `sqlite.ts`, `postgres.ts`.
 * Every method is async so the three are interchangeable.
 */
import type {AgentPatch, AgentRecord, NewAgent, ProbeResult} from '../types.js'

/** One page of a keyset listing (ordered by agent_id). */
export interface AgentPage {
  agents: AgentRecord[]
  /** The last agent_id of this page when more may follow, else null. */
  nextAfter: string | null
}

export interface ListAgentsQuery {
  /** true: seen at or after `onlineSinceMs`; false: never seen or seen before it. */
  online?: boolean
  /** The liveness cutoff (now - 5 min); required when `online` is set. */
  onlineSinceMs?: number
  /** Keyset cursor: agent ids strictly greater than this. */
  after?: string
  limit: number
}

/** What {@link RegistryStore.applyAgentPatch} did: wrote a difference, found nothing to change, or no such agent. */
export type PatchOutcome = 'changed' | 'unchanged' | 'missing'

/** The registry's store. Every implementation passes test/registry/store/store.contract.ts. */
export interface RegistryStore {
  /** Inserts a new agent; false when the agent_id is taken (atomic across nodes). */
  createAgent(agent: NewAgent): Promise<boolean>
  getAgent(agentId: string): Promise<AgentRecord | null>
  /** Just the api-key hash (the token route's check), or null for an unknown agent. */
  getApiKeyHash(agentId: string): Promise<string | null>
  /** Applies the given fields; false when the agent does not exist. */
  updateAgent(agentId: string, patch: AgentPatch): Promise<boolean>
  /**
   * Applies the patch only when some field differs from the stored value
   * (compared as stored: serialized JSON text in SQLite, jsonb equality in
   * PostgreSQL) and writes nothing otherwise — a heartbeat repeating its card
   * costs a comparison, not a write, and tells the caller whether to announce it.
   */
  applyAgentPatch(agentId: string, patch: AgentPatch): Promise<PatchOutcome>
  /**
   * Moves the heartbeat watermark forward to `nowMs` (never back) and returns
   * the previous watermark, or undefined when the agent does not exist.
   */
  touchAgent(agentId: string, nowMs: number): Promise<number | null | undefined>
  /** Keyset listing ordered by agent_id. */
  listAgents(query: ListAgentsQuery): Promise<AgentPage>
  /** Ids of agents whose watermark lies in [fromMs, toMs): those that went offline between two sweeps. */
  listSeenBetween(fromMs: number, toMs: number): Promise<string[]>
  /** Stores the prober's latest result for an agent (no-op for an unknown agent). */
  saveProbe(agentId: string, result: ProbeResult): Promise<void>
  /** Agents to probe: online at `onlineSinceMs` (seen at or after it), with an endpoint and a card. */
  listProbeTargets(onlineSinceMs: number): Promise<AgentRecord[]>
  /**
   * Records a Mesh-Sig nonce; true when it was new, false when already used
   * and not yet expired (atomic across nodes). Expired rows are purged.
   */
  useNonce(key: string, expiresAtMs: number, nowMs?: number): Promise<boolean>
  /**
   * Stores `candidate` under `name` unless a value exists, and returns the
   * stored one: how every node of a deployment agrees on the JWT secret and
   * the admin key.
   */
  claimSecret(name: string, candidate: string): Promise<string>
  /**
   * Agents registered and, of them, seen at or after `onlineSinceMs`: two
   * counts in one read, for the metrics scrape (a scan of the narrow
   * heartbeat table, no record is loaded).
   */
  countAgents(onlineSinceMs: number): Promise<AgentCounts>
  /** Resolves when the database answers a trivial query (`/health/ready`); rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface AgentCounts {
  registered: number
  online: number
}

const clone = <T>(value: T): T => structuredClone(value)

/** The in-memory store: single process, for tests and ephemeral runs. */
export function createMemoryRegistryStore(): RegistryStore {
  const agents = new Map<string, AgentRecord>()
  const nonces = new Map<string, number>()
  const secrets = new Map<string, string>()
  let lastPurgeMs = 0
  const isOnline = (agent: AgentRecord, sinceMs: number) => agent.lastSeenMs !== null && agent.lastSeenMs >= sinceMs
  return {
    async createAgent(agent) {
      if (agents.has(agent.agentId)) return false
      agents.set(agent.agentId, {
        ...clone(agent),
        agentCard: null,
        description: null,
        displayName: null,
        ownerClass: 'third-party',
        brand: null,
        lastSeenMs: null,
        probe: null,
      })
      return true
    },
    async getAgent(agentId) {
      const agent = agents.get(agentId)
      return agent ? clone(agent) : null
    },
    async getApiKeyHash(agentId) {
      return agents.get(agentId)?.apiKeyHash ?? null
    },
    async updateAgent(agentId, patch) {
      const agent = agents.get(agentId)
      if (!agent) return false
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) (agent as unknown as Record<string, unknown>)[key] = clone(value)
      }
      return true
    },
    async applyAgentPatch(agentId, patch) {
      const agent = agents.get(agentId) as unknown as Record<string, unknown> | undefined
      if (!agent) return 'missing'
      let changed = false
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined || JSON.stringify(agent[key]) === JSON.stringify(value)) continue
        agent[key] = clone(value)
        changed = true
      }
      return changed ? 'changed' : 'unchanged'
    },
    async touchAgent(agentId, nowMs) {
      const agent = agents.get(agentId)
      if (!agent) return undefined
      const previous = agent.lastSeenMs
      agent.lastSeenMs = Math.max(previous ?? nowMs, nowMs)
      return previous
    },
    async listAgents(query) {
      const ids = [...agents.keys()].filter((id) => query.after === undefined || id > query.after).sort()
      const page: AgentRecord[] = []
      let more = false
      for (const id of ids) {
        const agent = agents.get(id)!
        if (query.online !== undefined && isOnline(agent, query.onlineSinceMs ?? 0) !== query.online) continue
        if (page.length === query.limit) {
          more = true
          break
        }
        page.push(clone(agent))
      }
      return {agents: page, nextAfter: more ? page[page.length - 1].agentId : null}
    },
    async listSeenBetween(fromMs, toMs) {
      return [...agents.values()]
        .filter((a) => a.lastSeenMs !== null && a.lastSeenMs >= fromMs && a.lastSeenMs < toMs)
        .map((a) => a.agentId)
        .sort()
    },
    async saveProbe(agentId, result) {
      const agent = agents.get(agentId)
      if (agent) agent.probe = clone(result)
    },
    async listProbeTargets(onlineSinceMs) {
      return [...agents.values()]
        .filter((a) => isOnline(a, onlineSinceMs) && a.endpoint && a.agentCard)
        .sort((a, b) => (a.agentId < b.agentId ? -1 : 1))
        .map(clone)
    },
    async useNonce(key, expiresAtMs, nowMs = Date.now()) {
      if (nowMs - lastPurgeMs > 60_000) {
        lastPurgeMs = nowMs
        for (const [k, expires] of nonces) if (expires <= nowMs) nonces.delete(k)
      }
      const existing = nonces.get(key)
      if (existing !== undefined && existing > nowMs) return false
      nonces.set(key, expiresAtMs)
      return true
    },
    async countAgents(onlineSinceMs) {
      let online = 0
      for (const agent of agents.values()) if (isOnline(agent, onlineSinceMs)) online++
      return {registered: agents.size, online}
    },
    async ping() {},
    async claimSecret(name, candidate) {
      if (!secrets.has(name)) secrets.set(name, candidate)
      return secrets.get(name)!
    },
    async close() {},
  }
}
