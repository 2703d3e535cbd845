/** The nodes table of an area in PostgreSQL, shared by every node of a deployment. */
import {inTransaction, type PgPool} from '../postgres.js'
import {checkTableNames, type NodeTable, type NodeTableNames} from './table.js'

/** The area's migrations must have created both tables. */
export function createPostgresNodeTable(pool: PgPool, names: NodeTableNames): NodeTable {
  const {nodes, presence} = checkTableNames(names)
  return {
    async touchNode(nodeId, at) {
      // xmax is 0 on a freshly inserted row and non-zero on an updated one.
      const {rows} = await pool.query<{inserted: boolean}>(
        `INSERT INTO ${nodes} (node_id, seen_at) VALUES ($1, $2) ON CONFLICT (node_id) DO UPDATE SET seen_at = EXCLUDED.seen_at RETURNING (xmax = 0) AS inserted`,
        [nodeId, at],
      )
      return !rows[0]!.inserted
    },
    async listNodes() {
      const {rows} = await pool.query<{node_id: string; seen_at: string}>(`SELECT node_id, seen_at FROM ${nodes} ORDER BY node_id`)
      return rows.map((row) => ({node_id: row.node_id, seen_at: Number(row.seen_at)}))
    },
    async listLiveNodes(since) {
      const {rows} = await pool.query<{node_id: string}>(`SELECT node_id FROM ${nodes} WHERE seen_at >= $1`, [since])
      return rows.map((row) => row.node_id)
    },
    async removeNode(nodeId) {
      await inTransaction(pool, async (client) => {
        await client.query(`DELETE FROM ${presence} WHERE node_id = $1`, [nodeId])
        await client.query(`DELETE FROM ${nodes} WHERE node_id = $1`, [nodeId])
      })
    },
    async sweepNodes(staleBefore) {
      // One statement: the node row's delete re-checks seen_at (a node that just beat stays) and, of nodes
      // sweeping together, only the one whose delete took the row reports it.
      const {rows} = await pool.query<{node_id: string; members: string}>(
        `WITH gone AS (DELETE FROM ${nodes} WHERE seen_at < $1 RETURNING node_id),
              dropped AS (DELETE FROM ${presence} p USING gone WHERE p.node_id = gone.node_id RETURNING p.node_id)
         SELECT gone.node_id, (SELECT count(*) FROM dropped WHERE dropped.node_id = gone.node_id) AS members FROM gone ORDER BY gone.node_id`,
        [staleBefore],
      )
      return rows.map((row) => ({node_id: row.node_id, members: Number(row.members)}))
    },
  }
}
