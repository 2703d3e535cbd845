import type {Bus} from '../../../src/bus/bus.js'
import {REGISTRY_EVENTS_SUBJECT, type AgentRecord, type JsonObject, type ProbeResult, type RegistryEvent, type RegistryEvents} from '../../../src/registry/types.js'

export const NOW = Date.parse('2026-06-20T12:00:00Z')

/** An online agent record with a DiscoveryCard; override anything. */
export function agentRecord(agentId: string, card: JsonObject = {}, overrides: Partial<AgentRecord> = {}): AgentRecord {
  return {
    agentId,
    apiKeyHash: 'x'.repeat(64),
    pubkey: null,
    endpoint: `https://${agentId}.example.com`,
    capabilities: Array.isArray(card.tags) ? (card.tags as string[]) : [],
    agentCard: {name: agentId, description: '', ...card},
    description: null,
    displayName: typeof card.name === 'string' ? card.name : null,
    ownerClass: 'third-party',
    brand: null,
    createdAtMs: NOW - 60_000,
    lastSeenMs: NOW - 1_000,
    probe: null,
    ...overrides,
  }
}

export function probe(partial: Partial<ProbeResult> = {}): ProbeResult {
  return {probed_at: new Date(NOW).toISOString(), card: null, operational: true, card_match: null, skills: [], ...partial}
}

/** RegistryEvents over a Bus, the way the core publishes them (JSON on registry.events). */
export function busEvents(bus: Bus, clock: () => number): RegistryEvents {
  return {
    publish(type, agentId) {
      const event: RegistryEvent = {type, agent_id: agentId, at: new Date(clock()).toISOString()}
      bus.publish(REGISTRY_EVENTS_SUBJECT, Buffer.from(JSON.stringify(event)))
    },
    subscribe(handler) {
      return bus.subscribe(REGISTRY_EVENTS_SUBJECT, (data) => handler(JSON.parse(Buffer.from(data).toString('utf8')) as RegistryEvent))
    },
  }
}

/** A RegistryContext over an in-memory store and a local bus; auth hooks refuse (search needs none). */
export function testContext(store: import('../../../src/registry/store/store.js').RegistryStore, bus: Bus, clock: () => number): import('../../../src/registry/types.js').RegistryContext {
  return {
    store,
    bus,
    clock,
    logger: {debug() {}, info() {}, warn() {}, error() {}},
    publicUrl: 'http://registry.test',
    limits: {bodyBytes: 64 * 1024, perIpPerMinute: 1000, perIdentityPerMinute: 1000, registrationsPerIpPerHour: 100},
    authenticate: async () => {
      throw new Error('not used by search')
    },
    verifySignedRequest: async () => {
      throw new Error('not used by search')
    },
    events: busEvents(bus, clock),
  }
}

/** Writes an agent into a store the way registration + a heartbeat + a card push would. */
export async function putAgent(store: import('../../../src/registry/store/store.js').RegistryStore, record: AgentRecord): Promise<void> {
  await store.createAgent({agentId: record.agentId, apiKeyHash: record.apiKeyHash, pubkey: record.pubkey, endpoint: record.endpoint, capabilities: record.capabilities, createdAtMs: record.createdAtMs})
  await store.updateAgent(record.agentId, {agentCard: record.agentCard, displayName: record.displayName, description: record.description})
  if (record.lastSeenMs !== null) await store.touchAgent(record.agentId, record.lastSeenMs)
  if (record.probe) await store.saveProbe(record.agentId, record.probe)
}
