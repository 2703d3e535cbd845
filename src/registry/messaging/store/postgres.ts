import {createPostgresNodeTable} from '../../../store/nodes/postgres.js'
import {inTransaction, migratePostgres, type PgPool} from '../../../store/postgres.js'
import {MESSAGING_NODE_TABLES, POSTGRES_MESSAGING_MIGRATIONS} from './migrations.js'
import type {DeadLetter, Delivery, MessageRoute, MessagingStore, StoredMessage} from './store.js'

interface Row {
  id: string
  to_agent: string
  from_agent: string
  payload: string
  ts: string
  attempts: number
  last_attempt_at: string
  last_error: string | null
}

// BIGINT/BIGSERIAL come back as strings from pg; ids and times stay far below 2^53.
const toMessage = (row: Row): StoredMessage => ({id: Number(row.id), to: row.to_agent, from: row.from_agent, payload: JSON.parse(row.payload), ts: row.ts})

/**
 * The messaging store in the registry's PostgreSQL database: shared by every
 * registry node. Claims use `FOR UPDATE SKIP LOCKED`, so several nodes' webhook
 * workers never send the same delivery at once.
 */
export async function createPostgresMessagingStore(pool: PgPool): Promise<MessagingStore> {
  await migratePostgres(pool, POSTGRES_MESSAGING_MIGRATIONS)
  return {
    ...createPostgresNodeTable(pool, MESSAGING_NODE_TABLES),
    async insert(message, now) {
      const payload = JSON.stringify(message.payload ?? null)
      // The route is decided in the same statement as the insert, so it agrees with the webhook row at that instant.
      const {rows} = await pool.query<{id: string; state: MessageRoute}>(
        `INSERT INTO messaging_messages (id, to_agent, from_agent, payload, ts, state, next_attempt_at)
         SELECT COALESCE($6::bigint, nextval('messaging_messages_id_seq')), $1, $2, $3, $4,
                CASE WHEN EXISTS (SELECT 1 FROM messaging_webhooks WHERE agent_id = $1) THEN 'webhook' ELSE 'inbox' END, $5
         RETURNING id, state`,
        [message.to, message.from, payload, message.ts, now, message.id ?? null],
      )
      const row = rows[0]!
      return {message: {id: Number(row.id), to: message.to, from: message.from, payload: JSON.parse(payload), ts: message.ts}, route: row.state}
    },
    async prepareLive(to, freshSince) {
      const {rows} = await pool.query<{id: string; nodes: string[]}>(
        `SELECT nextval('messaging_messages_id_seq') AS id, ARRAY(
           SELECT p.node_id FROM messaging_presence p JOIN messaging_nodes n ON n.node_id = p.node_id
           WHERE p.agent_id = $1 AND n.seen_at >= $2 ORDER BY p.node_id) AS nodes`,
        [to, freshSince],
      )
      return {id: Number(rows[0]!.id), nodes: rows[0]!.nodes}
    },
    async consume(agentId, limit) {
      // DELETE … RETURNING of rows locked with SKIP LOCKED: two concurrent reads never return the same message.
      const {rows} = await pool.query<Row>(
        `DELETE FROM messaging_messages WHERE id IN (
           SELECT id FROM messaging_messages WHERE to_agent = $1 AND state = 'inbox' ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [agentId, limit],
      )
      return rows.map(toMessage).sort((a, b) => a.id - b.id)
    },
    async ack(agentId, ids) {
      if (ids.length === 0) return []
      const {rows} = await pool.query<Row>(
        "DELETE FROM messaging_messages WHERE to_agent = $1 AND state = 'inbox' AND id = ANY($2::bigint[]) RETURNING *",
        [agentId, [...new Set(ids)]],
      )
      return rows.map(toMessage).sort((a, b) => a.id - b.id)
    },
    async counts(agentId) {
      const {rows} = await pool.query<{state: 'inbox' | 'webhook' | 'dead'; n: number}>(
        'SELECT state, count(*)::int AS n FROM messaging_messages WHERE to_agent = $1 GROUP BY state',
        [agentId],
      )
      const counts = {inbox: 0, webhook: 0, dead: 0}
      for (const {state, n} of rows) counts[state] = n
      return counts
    },
    async setWebhook(agentId, url, secret, now) {
      return inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO messaging_webhooks (agent_id, url, secret, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (agent_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = excluded.created_at`,
          [agentId, url, secret, new Date(now).toISOString()],
        )
        const moved = await client.query(
          "UPDATE messaging_messages SET state = 'webhook', attempts = 0, next_attempt_at = $1, last_error = NULL WHERE to_agent = $2 AND state = 'inbox'",
          [now, agentId],
        )
        return {moved: moved.rowCount ?? 0}
      })
    },
    async removeWebhook(agentId) {
      return inTransaction(pool, async (client) => {
        const removed = await client.query('DELETE FROM messaging_webhooks WHERE agent_id = $1', [agentId])
        const moved = await client.query(
          "UPDATE messaging_messages SET state = 'inbox', attempts = 0, last_error = NULL WHERE to_agent = $1 AND state IN ('webhook', 'dead')",
          [agentId],
        )
        return {removed: (removed.rowCount ?? 0) > 0, moved: moved.rowCount ?? 0}
      })
    },
    async getWebhook(agentId) {
      const {rows} = await pool.query<{agent_id: string; url: string; secret: string; created_at: string}>(
        'SELECT * FROM messaging_webhooks WHERE agent_id = $1',
        [agentId],
      )
      const row = rows[0]
      return row && {agentId: row.agent_id, url: row.url, secret: row.secret, createdAt: row.created_at}
    },
    async claimDeliveries(now, limit, leaseMs) {
      return inTransaction(pool, async (client) => {
        const {rows} = await client.query<Row & {url: string | null; secret: string | null}>(
          `WITH due AS (
             SELECT id FROM messaging_messages WHERE state = 'webhook' AND next_attempt_at <= $1
             ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
           UPDATE messaging_messages m SET attempts = m.attempts + 1, next_attempt_at = $3, last_attempt_at = $1
           FROM due WHERE m.id = due.id
           RETURNING m.*, (SELECT url FROM messaging_webhooks w WHERE w.agent_id = m.to_agent) AS url,
                          (SELECT secret FROM messaging_webhooks w WHERE w.agent_id = m.to_agent) AS secret`,
          [now, limit, now + leaseMs],
        )
        const orphans = rows.filter((row) => row.url === null || row.secret === null).map((row) => row.id)
        if (orphans.length > 0) {
          await client.query("UPDATE messaging_messages SET state = 'inbox', attempts = 0, last_error = NULL WHERE id = ANY($1::bigint[])", [orphans])
        }
        return rows
          .filter((row) => row.url !== null && row.secret !== null)
          .map((row): Delivery => ({...toMessage(row), attempts: row.attempts, url: row.url!, secret: row.secret!}))
          .sort((a, b) => a.id - b.id)
      })
    },
    async completeDelivery(id) {
      await pool.query("DELETE FROM messaging_messages WHERE id = $1 AND state = 'webhook'", [id])
    },
    async failDelivery(id, error, retryAt, now) {
      if (retryAt === null) {
        await pool.query("UPDATE messaging_messages SET state = 'dead', last_error = $1, last_attempt_at = $2 WHERE id = $3 AND state = 'webhook'", [error, now, id])
      } else {
        await pool.query(
          "UPDATE messaging_messages SET next_attempt_at = $1, last_error = $2, last_attempt_at = $3 WHERE id = $4 AND state = 'webhook'",
          [retryAt, error, now, id],
        )
      }
    },
    async listDeadLetters(agentId, limit): Promise<DeadLetter[]> {
      const {rows} = await pool.query<Row>("SELECT * FROM messaging_messages WHERE to_agent = $1 AND state = 'dead' ORDER BY id LIMIT $2", [agentId, limit])
      return rows.map((row) => ({...toMessage(row), attempts: row.attempts, lastError: row.last_error, deadAt: new Date(Number(row.last_attempt_at)).toISOString()}))
    },
    async requeueDeadLetters(agentId, now) {
      const result = await pool.query(
        "UPDATE messaging_messages SET state = 'webhook', attempts = 0, next_attempt_at = $1, last_error = NULL WHERE to_agent = $2 AND state = 'dead'",
        [now, agentId],
      )
      return result.rowCount ?? 0
    },
    async addPresence(agentId, nodeId, now) {
      await pool.query('INSERT INTO messaging_presence (agent_id, node_id, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [agentId, nodeId, now])
    },
    async removePresence(agentId, nodeId) {
      await pool.query('DELETE FROM messaging_presence WHERE agent_id = $1 AND node_id = $2', [agentId, nodeId])
    },
    async nodesOf(agentId, freshSince) {
      const {rows} = await pool.query<{node_id: string}>(
        `SELECT p.node_id FROM messaging_presence p JOIN messaging_nodes n ON n.node_id = p.node_id
         WHERE p.agent_id = $1 AND n.seen_at >= $2 ORDER BY p.node_id`,
        [agentId, freshSince],
      )
      return rows.map((row) => row.node_id)
    },
  }
}
