/** The mapping between AgentRecord fields and SQL columns, shared by the SQLite and PostgreSQL stores. */
import type {AgentPatch, AgentRecord, OwnerClass} from '../types.js'

/** Patchable field → column, and whether the column holds JSON. */
export const PATCH_COLUMNS: Record<keyof AgentPatch, {column: string; json: boolean}> = {
  apiKeyHash: {column: 'api_key_hash', json: false},
  pubkey: {column: 'pubkey', json: false},
  endpoint: {column: 'endpoint', json: false},
  capabilities: {column: 'capabilities', json: true},
  agentCard: {column: 'agent_card', json: true},
  description: {column: 'description', json: false},
  displayName: {column: 'display_name', json: false},
  ownerClass: {column: 'owner_class', json: false},
  brand: {column: 'brand', json: false},
}

/** Columns holding JSON (TEXT in SQLite, JSONB in PostgreSQL). */
export const JSON_COLUMNS: ReadonlySet<string> = new Set(Object.values(PATCH_COLUMNS).filter((spec) => spec.json).map((spec) => spec.column))

/** One column to write: the field it holds, its column, and the value as stored (JSON serialised). */
export interface Assignment {
  field: keyof AgentPatch
  column: string
  json: boolean
  value: unknown
}

/** The columns to write for a patch, in a stable order, with JSON values serialised. */
export function patchAssignments(patch: AgentPatch): Assignment[] {
  const out: Assignment[] = []
  for (const [field, spec] of Object.entries(PATCH_COLUMNS) as Array<[keyof AgentPatch, {column: string; json: boolean}]>) {
    const value = patch[field]
    if (value === undefined) continue
    out.push({field, column: spec.column, json: spec.json, value: spec.json && value !== null ? JSON.stringify(value) : value})
  }
  return out
}

/** The fields of written assignments as a read would return them (JSON parsed afresh from what was stored). */
export function assignedFields(sets: Assignment[]): Partial<AgentRecord> {
  const fields: Record<string, unknown> = {}
  for (const set of sets) fields[set.field] = set.json && set.value !== null ? JSON.parse(set.value as string) : set.value
  return fields as Partial<AgentRecord>
}

const json = <T>(value: unknown): T | null => (value === null || value === undefined ? null : typeof value === 'string' ? JSON.parse(value) : (value as T))
const int = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))

/** The agent columns in the order {@link valuesToAgent} reads them (SQLite reads rows as arrays: cheaper than objects). */
export const AGENT_COLUMNS = [
  'agent_id', 'api_key_hash', 'pubkey', 'endpoint', 'capabilities', 'agent_card', 'description',
  'display_name', 'owner_class', 'brand', 'created_at_ms', 'last_seen_ms', 'probe',
] as const

/** A row read in {@link AGENT_COLUMNS} order as an AgentRecord. */
export function valuesToAgent(values: unknown[]): AgentRecord {
  return {
    agentId: values[0] as string,
    apiKeyHash: values[1] as string,
    pubkey: (values[2] as string | null) ?? null,
    endpoint: (values[3] as string | null) ?? null,
    capabilities: json<string[]>(values[4]) ?? [],
    agentCard: json(values[5]),
    description: (values[6] as string | null) ?? null,
    displayName: (values[7] as string | null) ?? null,
    ownerClass: (values[8] as OwnerClass | null) ?? 'third-party',
    brand: (values[9] as string | null) ?? null,
    createdAtMs: int(values[10]) ?? 0,
    lastSeenMs: int(values[11]),
    probe: json(values[12]),
  }
}

/** A database row (either backend) as an AgentRecord. */
export function rowToAgent(row: Record<string, unknown>): AgentRecord {
  return {
    agentId: row.agent_id as string,
    apiKeyHash: row.api_key_hash as string,
    pubkey: (row.pubkey as string | null) ?? null,
    endpoint: (row.endpoint as string | null) ?? null,
    capabilities: json<string[]>(row.capabilities) ?? [],
    agentCard: json(row.agent_card),
    description: (row.description as string | null) ?? null,
    displayName: (row.display_name as string | null) ?? null,
    ownerClass: ((row.owner_class as OwnerClass | null) ?? 'third-party'),
    brand: (row.brand as string | null) ?? null,
    createdAtMs: int(row.created_at_ms) ?? 0,
    lastSeenMs: int(row.last_seen_ms),
    probe: json(row.probe),
  }
}

/** How often (ms) a node purges expired nonces; the insert itself already ignores expired rows. */
export const NONCE_PURGE_EVERY_MS = 60_000
