/**
 * The registry store on PostgreSQL, for several registry nodes sharing one
 * database: every check-then-write (create, nonce, secret, heartbeat) is a
 * single atomic statement, so two nodes never disagree.
 */
import {migratePostgres, type PgPool} from '../../store/postgres.js'
import {JSON_COLUMNS, NONCE_PURGE_EVERY_MS, patchAssignments, rowToAgent} from './columns.js'
import {REGISTRY_POSTGRES_MIGRATIONS} from './migrations.js'
import type {RegistryStore} from './store.js'

export interface PostgresRegistryStoreOptions {
  /** A pool from openPostgres (search_path set); shared with other areas. */
  pool: PgPool
  /** End the pool on store.close(); default false (the opener owns it). */
  closePool?: boolean
}

/** Migrates the registry area (advisory-locked) and returns the store. */
export async function createPostgresRegistryStore(options: PostgresRegistryStoreOptions): Promise<RegistryStore> {
  const {pool} = options
  await migratePostgres(pool, REGISTRY_POSTGRES_MIGRATIONS)
  let lastPurgeMs = 0
  return {
    async createAgent(agent) {
      const result = await pool.query(
        `INSERT INTO registry_agents (agent_id, api_key_hash, pubkey, endpoint, capabilities, created_at_ms)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT (agent_id) DO NOTHING`,
        [agent.agentId, agent.apiKeyHash, agent.pubkey, agent.endpoint, JSON.stringify(agent.capabilities), agent.createdAtMs],
      )
      return result.rowCount === 1
    },
    async getAgent(agentId) {
      const result = await pool.query('SELECT * FROM registry_agents WHERE agent_id = $1', [agentId])
      return result.rows[0] ? rowToAgent(result.rows[0]) : null
    },
    async getApiKeyHash(agentId) {
      const result = await pool.query('SELECT api_key_hash FROM registry_agents WHERE agent_id = $1', [agentId])
      return (result.rows[0]?.api_key_hash as string | undefined) ?? null
    },
    async updateAgent(agentId, patch) {
      const sets = patchAssignments(patch)
      if (sets.length === 0) {
        return ((await pool.query('SELECT 1 FROM registry_agents WHERE agent_id = $1', [agentId])).rowCount ?? 0) === 1
      }
      // Column names come from the fixed PATCH_COLUMNS table, never from input.
      const assignments = sets.map((s, i) => `${s.column} = $${i + 2}`).join(', ')
      const result = await pool.query(`UPDATE registry_agents SET ${assignments} WHERE agent_id = $1`, [agentId, ...sets.map((s) => s.value)])
      return result.rowCount === 1
    },
    async applyAgentPatch(agentId, patch) {
      const sets = patchAssignments(patch)
      if (sets.length > 0) {
        // jsonb columns compare as values (key order and spacing aside); an identical row is not rewritten.
        const param = (s: {column: string}, i: number) => (JSON_COLUMNS.has(s.column) ? `$${i + 2}::jsonb` : `$${i + 2}`)
        const assignments = sets.map((s, i) => `${s.column} = ${param(s, i)}`).join(', ')
        const differs = sets.map((s, i) => `${s.column} IS DISTINCT FROM ${param(s, i)}`).join(' OR ')
        const result = await pool.query(`UPDATE registry_agents SET ${assignments} WHERE agent_id = $1 AND (${differs})`, [agentId, ...sets.map((s) => s.value)])
        if (result.rowCount === 1) return 'changed'
      }
      const exists = await pool.query('SELECT 1 FROM registry_agents WHERE agent_id = $1', [agentId])
      return exists.rowCount === 1 ? 'unchanged' : 'missing'
    },
    async touchAgent(agentId, nowMs) {
      const result = await pool.query(
        `UPDATE registry_agents AS a SET last_seen_ms = GREATEST(COALESCE(old.last_seen_ms, $2), $2)
         FROM (SELECT agent_id, last_seen_ms FROM registry_agents WHERE agent_id = $1 FOR UPDATE) AS old
         WHERE a.agent_id = old.agent_id RETURNING old.last_seen_ms AS previous`,
        [agentId, nowMs],
      )
      if (result.rowCount === 0) return undefined
      const previous = result.rows[0].previous
      return previous === null ? null : Number(previous)
    },
    async listAgents(query) {
      const where: string[] = []
      const params: unknown[] = []
      if (query.after !== undefined) {
        params.push(query.after)
        where.push(`agent_id > $${params.length}`)
      }
      if (query.online !== undefined) {
        params.push(query.onlineSinceMs ?? 0)
        where.push(query.online ? `last_seen_ms >= $${params.length}` : `(last_seen_ms IS NULL OR last_seen_ms < $${params.length})`)
      }
      params.push(query.limit + 1)
      //: keyset order must be byte order, the same as SQLite and the in-memory store.
      const sql = `SELECT * FROM registry_agents ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY agent_id LIMIT $${params.length}`
      const rows = (await pool.query(sql, params)).rows
      const more = rows.length > query.limit
      const agents = rows.slice(0, query.limit).map(rowToAgent)
      return {agents, nextAfter: more ? agents[agents.length - 1].agentId : null}
    },
    async listSeenBetween(fromMs, toMs) {
      const result = await pool.query(
        'SELECT agent_id FROM registry_agents WHERE last_seen_ms >= $1 AND last_seen_ms < $2 ORDER BY agent_id',
        [fromMs, toMs],
      )
      return result.rows.map((row) => row.agent_id as string)
    },
    async saveProbe(agentId, result) {
      await pool.query('UPDATE registry_agents SET probe = $2::jsonb WHERE agent_id = $1', [agentId, JSON.stringify(result)])
    },
    async listProbeTargets(onlineSinceMs) {
      const result = await pool.query(
        `SELECT * FROM registry_agents WHERE last_seen_ms >= $1 AND endpoint IS NOT NULL AND agent_card IS NOT NULL ORDER BY agent_id`,
        [onlineSinceMs],
      )
      return result.rows.map(rowToAgent)
    },
    async useNonce(key, expiresAtMs, nowMs = Date.now()) {
      if (nowMs - lastPurgeMs >= NONCE_PURGE_EVERY_MS) {
        lastPurgeMs = nowMs
        await pool.query('DELETE FROM registry_nonces WHERE expires_at_ms <= $1', [nowMs])
      }
      // Insert, or take over an expired row; rowCount is 0 when a live row holds the nonce.
      const result = await pool.query(
        `INSERT INTO registry_nonces (nonce_key, expires_at_ms) VALUES ($1, $2)
         ON CONFLICT (nonce_key) DO UPDATE SET expires_at_ms = EXCLUDED.expires_at_ms WHERE registry_nonces.expires_at_ms <= $3`,
        [key, expiresAtMs, nowMs],
      )
      return result.rowCount === 1
    },
    async countAgents(onlineSinceMs) {
      const {rows} = await pool.query(
        'SELECT count(*)::int AS registered, (count(*) FILTER (WHERE last_seen_ms >= $1))::int AS online FROM registry_agents',
        [onlineSinceMs],
      )
      return {registered: rows[0].registered as number, online: rows[0].online as number}
    },
    async ping() {
      await pool.query('SELECT 1')
    },
    async claimSecret(name, candidate) {
      await pool.query('INSERT INTO registry_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate])
      return (await pool.query('SELECT value FROM registry_secrets WHERE name = $1', [name])).rows[0].value as string
    },
    async close() {
      if (options.closePool) await pool.end()
    },
  }
}
