/** The registry store on the embedded SQLite database (`<data>/mesh.db`). */
import type {Statement} from 'better-sqlite3'
import {migrateSqlite, type SqliteDatabase} from '../../store/sqlite.js'
import {AGENT_COLUMNS, assignedFields, NONCE_PURGE_EVERY_MS, patchAssignments, valuesToAgent} from './columns.js'
import {createGroupCommit} from './group-commit.js'
import {recordCacheOf} from './record-cache.js'
import {REGISTRY_SQLITE_MIGRATIONS} from './migrations.js'
import type {RegistryStore} from './store.js'
import type {AgentRecord} from '../types.js'
import {RECORD_CACHE_ENTRIES} from '../constants.js'

export interface SqliteRegistryStoreOptions {
  /** An open database (openSqlite); shared with other areas of the same process. */
  db: SqliteDatabase
  /** Close the database on store.close(); default false (the opener owns it). */
  closeDb?: boolean
  /** Agent records kept in memory (see record-cache.ts); 0 reads every time. */
  recordCacheEntries?: number
}

type Row = Record<string, unknown>

/** Migrates the registry area and returns the store. */
export function createSqliteRegistryStore(options: SqliteRegistryStoreOptions): RegistryStore {
  const {db} = options
  migrateSqlite(db, REGISTRY_SQLITE_MIGRATIONS)
  const insertAgent = db.prepare(
    `INSERT INTO registry_agents (agent_id, api_key_hash, pubkey, endpoint, capabilities, created_at_ms)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (agent_id) DO NOTHING`,
  )
  // The watermark lives in registry_heartbeats (migration 2); reads join it back in as last_seen_ms.
  const AGENT_ROWS = `SELECT ${AGENT_COLUMNS.map((c) => (c === 'last_seen_ms' ? 'h.last_seen_ms' : `a.${c}`)).join(', ')}
    FROM registry_agents a LEFT JOIN registry_heartbeats h ON h.agent_id = a.agent_id`
  const selectAgent = db.prepare(`${AGENT_ROWS} WHERE a.agent_id = ?`).raw()
  const agentExists = db.prepare('SELECT 1 FROM registry_agents WHERE agent_id = ?').pluck()
  const selectSeen = db.prepare('SELECT last_seen_ms FROM registry_heartbeats WHERE agent_id = ?').pluck()
  const updateSeen = db.prepare('UPDATE registry_heartbeats SET last_seen_ms = max(last_seen_ms, ?) WHERE agent_id = ?')
  const insertSeen = db.prepare('INSERT INTO registry_heartbeats (agent_id, last_seen_ms) VALUES (?, ?)')
  const touchOne = (agentId: string, nowMs: number): number | null | undefined => {
    const previous = selectSeen.get(agentId) as number | undefined
    if (previous !== undefined) {
      updateSeen.run(nowMs, agentId)
      return previous
    }
    if (!agentExists.get(agentId)) return undefined
    insertSeen.run(agentId, nowMs)
    return null
  }
  // Heartbeats and card changes arriving in one event-loop turn share one transaction.
  const batch = createGroupCommit(db)
  const cache = recordCacheOf(db, options.recordCacheEntries ?? RECORD_CACHE_ENTRIES)
  /** A batched write that keeps the cache in step: a batch that fails to commit leaves nothing cached. */
  const committed = <T>(write: () => T): Promise<T> =>
    batch.run(write).catch((error: unknown) => {
      cache.clear()
      throw error
    })
  /** Reads (and caches) an agent. */
  const readAgent = (agentId: string): AgentRecord | null => {
    const cached = cache.get(agentId)
    if (cached) return cached
    const row = selectAgent.get(agentId) as unknown[] | undefined
    if (!row) return null
    const record = valuesToAgent(row)
    cache.put(record)
    return {...record}
  }
  const seenBetween = db.prepare('SELECT agent_id FROM registry_heartbeats WHERE last_seen_ms >= ? AND last_seen_ms < ? ORDER BY agent_id')
  const saveProbe = db.prepare('UPDATE registry_agents SET probe = ? WHERE agent_id = ?')
  const probeTargets = db.prepare(
    `${AGENT_ROWS} WHERE h.last_seen_ms >= ? AND a.endpoint IS NOT NULL AND a.agent_card IS NOT NULL ORDER BY a.agent_id`,
  ).raw()
  const purgeNonces = db.prepare('DELETE FROM registry_nonces WHERE expires_at_ms <= ?')
  // Insert, or take over an expired row; `changes` is 0 when a live row holds the nonce.
  const claimNonce = db.prepare(
    `INSERT INTO registry_nonces (nonce_key, expires_at_ms) VALUES (?, ?)
     ON CONFLICT (nonce_key) DO UPDATE SET expires_at_ms = excluded.expires_at_ms WHERE registry_nonces.expires_at_ms <= ?`,
  )
  const insertSecret = db.prepare('INSERT INTO registry_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING')
  const selectSecret = db.prepare('SELECT value FROM registry_secrets WHERE name = ?')
  const countRegistered = db.prepare('SELECT count(*) FROM registry_agents').pluck()
  const countOnline = db.prepare('SELECT count(*) FROM registry_heartbeats WHERE last_seen_ms >= ?').pluck()
  const selectOne = db.prepare('SELECT 1').pluck()
  let lastPurgeMs = 0
  // Prepared once per column set: a heartbeat always patches the same columns.
  // Column names come from the fixed PATCH_COLUMNS table, never from input.
  const updates = new Map<string, Statement>()
  const conditionalUpdates = new Map<string, Statement>()
  const statementFor = (cache: Map<string, Statement>, columns: string[], sql: () => string) => {
    const key = columns.join(',')
    let statement = cache.get(key)
    if (!statement) cache.set(key, (statement = db.prepare(sql())))
    return statement
  }

  return {
    async createAgent(agent) {
      cache.delete(agent.agentId)
      const result = insertAgent.run(agent.agentId, agent.apiKeyHash, agent.pubkey, agent.endpoint, JSON.stringify(agent.capabilities), agent.createdAtMs)
      return result.changes === 1
    },
    async getAgent(agentId) {
      return readAgent(agentId)
    },
    async getApiKeyHash(agentId) {
      // The whole record, cached: the heartbeat's PATCH reads it right after this token call.
      return readAgent(agentId)?.apiKeyHash ?? null
    },
    async updateAgent(agentId, patch) {
      const sets = patchAssignments(patch)
      if (sets.length === 0) return Boolean(agentExists.get(agentId))
      const columns = sets.map((s) => s.column)
      const update = statementFor(updates, columns, () => `UPDATE registry_agents SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE agent_id = ?`)
      cache.delete(agentId)
      return update.run(...sets.map((s) => s.value), agentId).changes === 1
    },
    async applyAgentPatch(agentId, patch) {
      const sets = patchAssignments(patch)
      if (sets.length === 0) return agentExists.get(agentId) ? 'unchanged' : 'missing'
      const columns = sets.map((s) => s.column)
      // `IS NOT` compares the stored text byte for byte (and NULLs as values): an identical row is not rewritten.
      const update = statementFor(conditionalUpdates, columns, () =>
        `UPDATE registry_agents SET ${columns.map((c) => `${c} = ?`).join(', ')}
         WHERE agent_id = ? AND (${columns.map((c) => `${c} IS NOT ?`).join(' OR ')})`)
      const values = sets.map((s) => s.value)
      return committed(() => {
        if (update.run(...values, agentId, ...values).changes === 1) {
          // In the writing transaction, in write order: the cached record follows the row.
          cache.patch(agentId, assignedFields(sets))
          return 'changed'
        }
        return agentExists.get(agentId) ? 'unchanged' : 'missing'
      })
    },
    touchAgent(agentId, nowMs) {
      return committed(() => {
        const previous = touchOne(agentId, nowMs)
        if (previous !== undefined) cache.setLastSeen(agentId, nowMs)
        return previous
      })
    },
    async listAgents(query) {
      const where: string[] = []
      const params: unknown[] = []
      if (query.after !== undefined) {
        where.push('a.agent_id > ?')
        params.push(query.after)
      }
      if (query.online === true) {
        where.push('h.last_seen_ms >= ?')
        params.push(query.onlineSinceMs ?? 0)
      } else if (query.online === false) {
        where.push('(h.last_seen_ms IS NULL OR h.last_seen_ms < ?)')
        params.push(query.onlineSinceMs ?? 0)
      }
      const sql = `${AGENT_ROWS} ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY a.agent_id LIMIT ?`
      const rows = db.prepare(sql).raw().all(...params, query.limit + 1) as unknown[][]
      const more = rows.length > query.limit
      const agents = rows.slice(0, query.limit).map(valuesToAgent)
      return {agents, nextAfter: more ? agents[agents.length - 1].agentId : null}
    },
    async listSeenBetween(fromMs, toMs) {
      return (seenBetween.all(fromMs, toMs) as Row[]).map((row) => row.agent_id as string)
    },
    async saveProbe(agentId, result) {
      cache.delete(agentId)
      saveProbe.run(JSON.stringify(result), agentId)
    },
    async listProbeTargets(onlineSinceMs) {
      return (probeTargets.all(onlineSinceMs) as unknown[][]).map(valuesToAgent)
    },
    async useNonce(key, expiresAtMs, nowMs = Date.now()) {
      if (nowMs - lastPurgeMs >= NONCE_PURGE_EVERY_MS) {
        lastPurgeMs = nowMs
        purgeNonces.run(nowMs)
      }
      return claimNonce.run(key, expiresAtMs, nowMs).changes === 1
    },
    async countAgents(onlineSinceMs) {
      // Heartbeats of this turn may still sit in the group commit: counted once written.
      return {registered: countRegistered.get() as number, online: countOnline.get(onlineSinceMs) as number}
    },
    async ping() {
      // A closed handle throws here ("The database connection is not open").
      selectOne.get()
    },
    async claimSecret(name, candidate) {
      insertSecret.run(name, candidate)
      return (selectSecret.get(name) as Row).value as string
    },
    async close() {
      if (db.open) batch.flush()
      if (options.closeDb && db.open) db.close()
    },
  }
}
