/** The cluster store in the embedded SQLite database (better-sqlite3: synchronous, one process). */
import {createSqliteNodeTable} from '../../store/nodes/sqlite.js'
import {migrateSqlite, type SqliteDatabase} from '../../store/sqlite.js'
import type {ClusterRecord} from '../types.js'
import {CLUSTER_NODE_TABLES, SQLITE_CLUSTER_MIGRATIONS} from './migrations.js'
import {slugTaken, type ClusterStore, type PresenceEntry} from './store.js'

interface ClusterRow {
  cluster_id: string
  name: string | null
  slug: string | null
  visibility: 'private' | 'public'
  topic: string | null
  description: string | null
  props: string
  persist: number
  created_at: string
}

const toRecord = (row: ClusterRow): ClusterRecord => ({
  cluster_id: row.cluster_id,
  name: row.name,
  slug: row.slug,
  visibility: row.visibility,
  topic: row.topic,
  description: row.description,
  props: JSON.parse(row.props),
  persist: row.persist === 1,
  created_at: row.created_at,
})

const COLUMNS = 'cluster_id, name, slug, visibility, topic, description, props, persist, created_at'

/** Migrates the `cluster` area on `db` (shared with the rest of mesh) and returns the store. */
export function createSqliteClusterStore(db: SqliteDatabase): ClusterStore {
  migrateSqlite(db, SQLITE_CLUSTER_MIGRATIONS)
  const q = {
    insert: db.prepare(`INSERT INTO clusters (${COLUMNS}, token_hash, admin_token_hash)
      VALUES (@cluster_id, @name, @slug, @visibility, @topic, @description, @props, @persist, @created_at, @token_hash, @admin_token_hash)`),
    get: db.prepare(`SELECT ${COLUMNS} FROM clusters WHERE cluster_id = ?`),
    bySlug: db.prepare(`SELECT ${COLUMNS} FROM clusters WHERE slug = ? AND visibility = 'public'`),
    credentials: db.prepare('SELECT token_hash, admin_token_hash FROM clusters WHERE cluster_id = ?'),
    page: db.prepare(`SELECT ${COLUMNS} FROM clusters WHERE visibility = 'public' ORDER BY created_at DESC, cluster_id LIMIT ? OFFSET ?`),
    total: db.prepare(`SELECT COUNT(*) AS n FROM clusters WHERE visibility = 'public'`),
    delete: db.prepare('DELETE FROM clusters WHERE cluster_id = ?'),
    deletePresenceOfCluster: db.prepare('DELETE FROM cluster_presence WHERE cluster_id = ?'),
    countCreations: db.prepare('SELECT COUNT(*) AS n, MIN(at) AS oldest FROM cluster_creations WHERE ip_key = ? AND at >= ?'),
    pruneCreations: db.prepare('DELETE FROM cluster_creations WHERE at < ?'),
    recordCreation: db.prepare('INSERT INTO cluster_creations (ip_key, at) VALUES (?, ?)'),
    addPresence: db.prepare(`INSERT OR REPLACE INTO cluster_presence (node_id, socket_id, cluster_id, agent, did, vis, joined_at)
      VALUES (@node_id, @socket_id, @cluster_id, @agent, @did, @vis, @joined_at)`),
    removePresence: db.prepare('DELETE FROM cluster_presence WHERE node_id = ? AND socket_id = ?'),
    listPresence: db.prepare(`SELECT p.cluster_id, p.node_id, p.socket_id, p.agent, p.did, p.vis, p.joined_at
      FROM cluster_presence p JOIN cluster_nodes n ON n.node_id = p.node_id
      WHERE p.cluster_id = ? AND n.seen_at >= ? ORDER BY p.joined_at, p.socket_id`),
  }
  return {
    ...createSqliteNodeTable(db, CLUSTER_NODE_TABLES),
    async createCluster(cluster) {
      try {
        q.insert.run({...cluster, props: JSON.stringify(cluster.props), persist: cluster.persist ? 1 : 0})
      } catch (error) {
        if ((error as {code?: string}).code === 'SQLITE_CONSTRAINT_UNIQUE' && cluster.slug) throw slugTaken(cluster.slug)
        throw error
      }
    },
    async getCluster(clusterId) {
      const row = q.get.get(clusterId) as ClusterRow | undefined
      return row ? toRecord(row) : null
    },
    async getPublicClusterBySlug(slug) {
      const row = q.bySlug.get(slug) as ClusterRow | undefined
      return row ? toRecord(row) : null
    },
    async getCredentials(clusterId) {
      return (q.credentials.get(clusterId) as {token_hash: string; admin_token_hash: string} | undefined) ?? null
    },
    async listPublicClusters({limit, offset}) {
      const rows = q.page.all(limit, offset) as ClusterRow[]
      return {clusters: rows.map(toRecord), total: (q.total.get() as {n: number}).n}
    },
    async updateCluster(clusterId, patch) {
      const sets: string[] = []
      const values: Record<string, unknown> = {cluster_id: clusterId}
      if (patch.props !== undefined) (sets.push('props = @props'), (values.props = JSON.stringify(patch.props)))
      if (patch.persist !== undefined) (sets.push('persist = @persist'), (values.persist = patch.persist ? 1 : 0))
      if (patch.topic !== undefined) (sets.push('topic = @topic'), (values.topic = patch.topic))
      if (patch.description !== undefined) (sets.push('description = @description'), (values.description = patch.description))
      if (sets.length) db.prepare(`UPDATE clusters SET ${sets.join(', ')} WHERE cluster_id = @cluster_id`).run(values)
      return this.getCluster(clusterId)
    },
    async deleteCluster(clusterId) {
      return db.transaction(() => {
        q.deletePresenceOfCluster.run(clusterId)
        return q.delete.run(clusterId).changes > 0
      })()
    },
    async countCreations(ipKey, since) {
      const row = q.countCreations.get(ipKey, since) as {n: number; oldest: number | null}
      return {count: row.n, oldest: row.oldest}
    },
    async recordCreation(ipKey, at, pruneBefore) {
      q.pruneCreations.run(pruneBefore)
      q.recordCreation.run(ipKey, at)
    },
    async addPresence(entry) {
      q.addPresence.run(entry)
    },
    async removePresence(nodeId, socketId) {
      q.removePresence.run(nodeId, socketId)
    },
    async listPresence(clusterId, aliveSince) {
      return q.listPresence.all(clusterId, aliveSince) as PresenceEntry[]
    },
    async onlineCounts(clusterIds, aliveSince) {
      const counts = new Map(clusterIds.map((id) => [id, 0]))
      if (clusterIds.length === 0) return counts
      const rows = db
        .prepare(`SELECT p.cluster_id, COUNT(DISTINCT p.agent) AS n
          FROM cluster_presence p JOIN cluster_nodes n ON n.node_id = p.node_id
          WHERE p.vis <> 'ghost' AND n.seen_at >= ? AND p.cluster_id IN (${clusterIds.map(() => '?').join(', ')})
          GROUP BY p.cluster_id`)
        .all(aliveSince, ...clusterIds) as {cluster_id: string; n: number}[]
      for (const row of rows) counts.set(row.cluster_id, row.n)
      return counts
    },
  }
}
