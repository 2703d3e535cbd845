/** The cluster store in PostgreSQL: several relay nodes share one database (and its presence rows). */
import {createPostgresNodeTable} from '../../store/nodes/postgres.js'
import {migratePostgres, type PgPool} from '../../store/postgres.js'
import type {ClusterRecord} from '../types.js'
import {CLUSTER_NODE_TABLES, POSTGRES_CLUSTER_MIGRATIONS} from './migrations.js'
import {slugTaken, type ClusterStore, type PresenceEntry} from './store.js'

interface ClusterRow extends Omit<ClusterRecord, 'props'> {
  props: ClusterRecord['props']
}

const COLUMNS = 'cluster_id, name, slug, visibility, topic, description, props, persist, created_at'
const toRecord = (row: ClusterRow): ClusterRecord => ({...row})
const toPresence = (row: Record<string, unknown>): PresenceEntry => ({
  cluster_id: row.cluster_id as string,
  node_id: row.node_id as string,
  socket_id: row.socket_id as string,
  agent: row.agent as string,
  did: (row.did as string | null) ?? null,
  vis: row.vis as PresenceEntry['vis'],
  joined_at: Number(row.joined_at),
})

/** Migrates the `cluster` area on `pool` (advisory-locked, safe for nodes starting together) and returns the store. */
export async function createPostgresClusterStore(pool: PgPool): Promise<ClusterStore> {
  await migratePostgres(pool, POSTGRES_CLUSTER_MIGRATIONS)

  const store: ClusterStore = {
    ...createPostgresNodeTable(pool, CLUSTER_NODE_TABLES),
    async createCluster(c) {
      try {
        await pool.query(
          `INSERT INTO clusters (${COLUMNS}, token_hash, admin_token_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [c.cluster_id, c.name, c.slug, c.visibility, c.topic, c.description, JSON.stringify(c.props), c.persist, c.created_at, c.token_hash, c.admin_token_hash],
        )
      } catch (error) {
        if ((error as {code?: string}).code === '23505' && c.slug && (error as {constraint?: string}).constraint === 'clusters_public_slug') throw slugTaken(c.slug)
        throw error
      }
    },
    async getCluster(clusterId) {
      const {rows} = await pool.query(`SELECT ${COLUMNS} FROM clusters WHERE cluster_id = $1`, [clusterId])
      return rows[0] ? toRecord(rows[0]) : null
    },
    async getPublicClusterBySlug(slug) {
      const {rows} = await pool.query(`SELECT ${COLUMNS} FROM clusters WHERE slug = $1 AND visibility = 'public'`, [slug])
      return rows[0] ? toRecord(rows[0]) : null
    },
    async getCredentials(clusterId) {
      const {rows} = await pool.query('SELECT token_hash, admin_token_hash FROM clusters WHERE cluster_id = $1', [clusterId])
      return rows[0] ?? null
    },
    async listPublicClusters({limit, offset}) {
      const [page, total] = await Promise.all([
        pool.query(`SELECT ${COLUMNS} FROM clusters WHERE visibility = 'public' ORDER BY created_at DESC, cluster_id LIMIT $1 OFFSET $2`, [limit, offset]),
        pool.query(`SELECT COUNT(*)::int AS n FROM clusters WHERE visibility = 'public'`),
      ])
      return {clusters: page.rows.map(toRecord), total: total.rows[0].n}
    },
    async updateCluster(clusterId, patch) {
      const sets: string[] = []
      const values: unknown[] = [clusterId]
      const set = (column: string, value: unknown) => (values.push(value), sets.push(`${column} = $${values.length}`))
      if (patch.props !== undefined) set('props', JSON.stringify(patch.props))
      if (patch.persist !== undefined) set('persist', patch.persist)
      if (patch.topic !== undefined) set('topic', patch.topic)
      if (patch.description !== undefined) set('description', patch.description)
      if (sets.length) await pool.query(`UPDATE clusters SET ${sets.join(', ')} WHERE cluster_id = $1`, values)
      return this.getCluster(clusterId)
    },
    async deleteCluster(clusterId) {
      await pool.query('DELETE FROM cluster_presence WHERE cluster_id = $1', [clusterId])
      const result = await pool.query('DELETE FROM clusters WHERE cluster_id = $1', [clusterId])
      return (result.rowCount ?? 0) > 0
    },
    async countCreations(ipKey, since) {
      const {rows} = await pool.query('SELECT COUNT(*)::int AS n, MIN(at) AS oldest FROM cluster_creations WHERE ip_key = $1 AND at >= $2', [ipKey, since])
      return {count: rows[0].n, oldest: rows[0].oldest === null ? null : Number(rows[0].oldest)}
    },
    async recordCreation(ipKey, at, pruneBefore) {
      await pool.query('DELETE FROM cluster_creations WHERE at < $1', [pruneBefore])
      await pool.query('INSERT INTO cluster_creations (ip_key, at) VALUES ($1, $2)', [ipKey, at])
    },
    async addPresence(e) {
      await pool.query(
        `INSERT INTO cluster_presence (node_id, socket_id, cluster_id, agent, did, vis, joined_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (node_id, socket_id) DO UPDATE SET cluster_id = EXCLUDED.cluster_id, agent = EXCLUDED.agent, did = EXCLUDED.did, vis = EXCLUDED.vis, joined_at = EXCLUDED.joined_at`,
        [e.node_id, e.socket_id, e.cluster_id, e.agent, e.did, e.vis, e.joined_at],
      )
    },
    async removePresence(nodeId, socketId) {
      await pool.query('DELETE FROM cluster_presence WHERE node_id = $1 AND socket_id = $2', [nodeId, socketId])
    },
    async listPresence(clusterId, aliveSince) {
      const {rows} = await pool.query(
        `SELECT p.* FROM cluster_presence p JOIN cluster_nodes n ON n.node_id = p.node_id
         WHERE p.cluster_id = $1 AND n.seen_at >= $2 ORDER BY p.joined_at, p.socket_id`,
        [clusterId, aliveSince],
      )
      return rows.map(toPresence)
    },
    async onlineCounts(clusterIds, aliveSince) {
      const counts = new Map(clusterIds.map((id) => [id, 0]))
      if (clusterIds.length === 0) return counts
      const {rows} = await pool.query(
        `SELECT p.cluster_id, COUNT(DISTINCT p.agent)::int AS n FROM cluster_presence p JOIN cluster_nodes n ON n.node_id = p.node_id
         WHERE p.vis <> 'ghost' AND n.seen_at >= $1 AND p.cluster_id = ANY($2) GROUP BY p.cluster_id`,
        [aliveSince, clusterIds],
      )
      for (const row of rows) counts.set(row.cluster_id, row.n)
      return counts
    },
  }
  return store
}
