import {createSqliteNodeTable} from '../../../store/nodes/sqlite.js'
import {migrateSqlite, type SqliteDatabase} from '../../../store/sqlite.js'
import {MESSAGING_NODE_TABLES, SQLITE_MESSAGING_MIGRATIONS} from './migrations.js'
import type {DeadLetter, Delivery, MessageRoute, MessagingStore, StoredMessage} from './store.js'

interface Row {
  id: number
  to_agent: string
  from_agent: string
  payload: string
  ts: string
  attempts: number
  last_attempt_at: number
  last_error: string | null
}

const toMessage = (row: Row): StoredMessage => ({id: row.id, to: row.to_agent, from: row.from_agent, payload: JSON.parse(row.payload), ts: row.ts})

/**
 * The messaging store in the registry's SQLite database (single node). The
 * driver is synchronous, so every method is one transaction and atomic by
 * construction.
 */
export function createSqliteMessagingStore(db: SqliteDatabase): MessagingStore {
  migrateSqlite(db, SQLITE_MESSAGING_MIGRATIONS)
  const q = {
    hasWebhook: db.prepare('SELECT 1 FROM messaging_webhooks WHERE agent_id = ?'),
    nextId: db.prepare("UPDATE messaging_sequence SET value = value + 1 WHERE name = 'message' RETURNING value"),
    insert: db.prepare('INSERT INTO messaging_messages (id, to_agent, from_agent, payload, ts, state, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    inbox: db.prepare("SELECT * FROM messaging_messages WHERE to_agent = ? AND state = 'inbox' ORDER BY id LIMIT ?"),
    remove: db.prepare('DELETE FROM messaging_messages WHERE id = ?'),
    inboxById: db.prepare("SELECT * FROM messaging_messages WHERE id = ? AND to_agent = ? AND state = 'inbox'"),
    counts: db.prepare('SELECT state, count(*) AS n FROM messaging_messages WHERE to_agent = ? GROUP BY state'),
    upsertWebhook: db.prepare(
      'INSERT INTO messaging_webhooks (agent_id, url, secret, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = excluded.created_at',
    ),
    toQueue: db.prepare(
      "UPDATE messaging_messages SET state = 'webhook', attempts = 0, next_attempt_at = ?, last_error = NULL WHERE to_agent = ? AND state = ?",
    ),
    deleteWebhook: db.prepare('DELETE FROM messaging_webhooks WHERE agent_id = ?'),
    backToInbox: db.prepare(
      "UPDATE messaging_messages SET state = 'inbox', attempts = 0, last_error = NULL WHERE to_agent = ? AND state IN ('webhook', 'dead')",
    ),
    getWebhook: db.prepare('SELECT * FROM messaging_webhooks WHERE agent_id = ?'),
    due: db.prepare(
      "SELECT m.*, w.url AS url, w.secret AS secret FROM messaging_messages m LEFT JOIN messaging_webhooks w ON w.agent_id = m.to_agent WHERE m.state = 'webhook' AND m.next_attempt_at <= ? ORDER BY m.next_attempt_at, m.id LIMIT ?",
    ),
    orphanToInbox: db.prepare("UPDATE messaging_messages SET state = 'inbox', attempts = 0, last_error = NULL WHERE id = ?"),
    claim: db.prepare('UPDATE messaging_messages SET attempts = attempts + 1, next_attempt_at = ?, last_attempt_at = ? WHERE id = ?'),
    complete: db.prepare("DELETE FROM messaging_messages WHERE id = ? AND state = 'webhook'"),
    retry: db.prepare("UPDATE messaging_messages SET next_attempt_at = ?, last_error = ?, last_attempt_at = ? WHERE id = ? AND state = 'webhook'"),
    kill: db.prepare("UPDATE messaging_messages SET state = 'dead', last_error = ?, last_attempt_at = ? WHERE id = ? AND state = 'webhook'"),
    dead: db.prepare("SELECT * FROM messaging_messages WHERE to_agent = ? AND state = 'dead' ORDER BY id LIMIT ?"),
    addPresence: db.prepare('INSERT INTO messaging_presence (agent_id, node_id, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    removePresence: db.prepare('DELETE FROM messaging_presence WHERE agent_id = ? AND node_id = ?'),
    nodesOf: db.prepare(
      'SELECT p.node_id FROM messaging_presence p JOIN messaging_nodes n ON n.node_id = p.node_id WHERE p.agent_id = ? AND n.seen_at >= ? ORDER BY p.node_id',
    ),
  }

  const nextId = () => (q.nextId.get() as {value: number}).value
  const insert = db.transaction((given: number | undefined, to: string, from: string, payload: string, ts: string, now: number) => {
    const route: MessageRoute = q.hasWebhook.get(to) ? 'webhook' : 'inbox'
    const id = given ?? nextId()
    q.insert.run(id, to, from, payload, ts, route, now)
    return {id, route}
  })
  const consume = db.transaction((agentId: string, limit: number) => {
    const rows = q.inbox.all(agentId, limit) as Row[]
    for (const row of rows) q.remove.run(row.id)
    return rows
  })
  const ack = db.transaction((agentId: string, ids: number[]) => {
    const removed: Row[] = []
    for (const id of new Set(ids)) {
      const row = q.inboxById.get(id, agentId) as Row | undefined
      if (row) {
        q.remove.run(id)
        removed.push(row)
      }
    }
    return removed.sort((a, b) => a.id - b.id)
  })
  const setWebhook = db.transaction((agentId: string, url: string, secret: string, now: number) => {
    q.upsertWebhook.run(agentId, url, secret, new Date(now).toISOString())
    return q.toQueue.run(now, agentId, 'inbox').changes
  })
  const removeWebhook = db.transaction((agentId: string) => {
    const removed = q.deleteWebhook.run(agentId).changes > 0
    return {removed, moved: q.backToInbox.run(agentId).changes}
  })
  const claim = db.transaction((now: number, limit: number, leaseMs: number) => {
    const claimed: Delivery[] = []
    for (const row of q.due.all(now, limit) as (Row & {url: string | null; secret: string | null})[]) {
      if (row.url === null || row.secret === null) {
        q.orphanToInbox.run(row.id)
        continue
      }
      q.claim.run(now + leaseMs, now, row.id)
      claimed.push({...toMessage(row), attempts: row.attempts + 1, url: row.url, secret: row.secret})
    }
    return claimed
  })
  return {
    ...createSqliteNodeTable(db, MESSAGING_NODE_TABLES),
    async insert(message, now) {
      const {id, route} = insert(message.id, message.to, message.from, JSON.stringify(message.payload ?? null), message.ts, now)
      return {message: {id, to: message.to, from: message.from, payload: structuredClone(message.payload ?? null), ts: message.ts}, route}
    },
    async prepareLive(to, freshSince) {
      return {id: nextId(), nodes: (q.nodesOf.all(to, freshSince) as {node_id: string}[]).map((row) => row.node_id)}
    },
    async consume(agentId, limit) {
      return consume(agentId, limit).map(toMessage)
    },
    async ack(agentId, ids) {
      return ack(agentId, ids).map(toMessage)
    },
    async counts(agentId) {
      const counts = {inbox: 0, webhook: 0, dead: 0}
      for (const {state, n} of q.counts.all(agentId) as {state: keyof typeof counts; n: number}[]) counts[state] = n
      return counts
    },
    async setWebhook(agentId, url, secret, now) {
      return {moved: setWebhook(agentId, url, secret, now)}
    },
    async removeWebhook(agentId) {
      return removeWebhook(agentId)
    },
    async getWebhook(agentId) {
      const row = q.getWebhook.get(agentId) as {agent_id: string; url: string; secret: string; created_at: string} | undefined
      return row && {agentId: row.agent_id, url: row.url, secret: row.secret, createdAt: row.created_at}
    },
    async claimDeliveries(now, limit, leaseMs) {
      return claim(now, limit, leaseMs)
    },
    async completeDelivery(id) {
      q.complete.run(id)
    },
    async failDelivery(id, error, retryAt, now) {
      if (retryAt === null) q.kill.run(error, now, id)
      else q.retry.run(retryAt, error, now, id)
    },
    async listDeadLetters(agentId, limit): Promise<DeadLetter[]> {
      return (q.dead.all(agentId, limit) as Row[]).map((row) => ({
        ...toMessage(row),
        attempts: row.attempts,
        lastError: row.last_error,
        deadAt: new Date(row.last_attempt_at).toISOString(),
      }))
    },
    async requeueDeadLetters(agentId, now) {
      return q.toQueue.run(now, agentId, 'dead').changes
    },
    async addPresence(agentId, nodeId, now) {
      q.addPresence.run(agentId, nodeId, now)
    },
    async removePresence(agentId, nodeId) {
      q.removePresence.run(agentId, nodeId)
    },
    async nodesOf(agentId, freshSince) {
      return (q.nodesOf.all(agentId, freshSince) as {node_id: string}[]).map((row) => row.node_id)
    },
  }
}
