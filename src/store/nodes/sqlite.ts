/** The nodes table of an area in the embedded SQLite database (synchronous: each method is one transaction). */
import type {SqliteDatabase} from '../sqlite.js'
import {checkTableNames, type NodeTable, type NodeTableNames, type SweptNode} from './table.js'

/** The area's migrations must have created both tables. */
export function createSqliteNodeTable(db: SqliteDatabase, names: NodeTableNames): NodeTable {
  const {nodes, presence} = checkTableNames(names)
  const q = {
    known: db.prepare(`SELECT 1 FROM ${nodes} WHERE node_id = ?`),
    touch: db.prepare(`INSERT INTO ${nodes} (node_id, seen_at) VALUES (?, ?) ON CONFLICT (node_id) DO UPDATE SET seen_at = excluded.seen_at`),
    all: db.prepare(`SELECT node_id, seen_at FROM ${nodes} ORDER BY node_id`),
    live: db.prepare(`SELECT node_id FROM ${nodes} WHERE seen_at >= ?`),
    stale: db.prepare(`SELECT node_id FROM ${nodes} WHERE seen_at < ?`),
    removePresence: db.prepare(`DELETE FROM ${presence} WHERE node_id = ?`),
    remove: db.prepare(`DELETE FROM ${nodes} WHERE node_id = ?`),
  }
  const touch = db.transaction((nodeId: string, at: number) => {
    const known = q.known.get(nodeId) !== undefined
    q.touch.run(nodeId, at)
    return known
  })
  const remove = db.transaction((nodeId: string) => {
    const members = q.removePresence.run(nodeId).changes
    q.remove.run(nodeId)
    return members
  })
  const sweep = db.transaction((staleBefore: number): SweptNode[] =>
    (q.stale.all(staleBefore) as {node_id: string}[]).map(({node_id}) => ({node_id, members: remove(node_id)})),
  )
  return {
    async touchNode(nodeId, at) {
      return touch(nodeId, at)
    },
    async listNodes() {
      return (q.all.all() as {node_id: string; seen_at: number}[]).map((row) => ({node_id: row.node_id, seen_at: Number(row.seen_at)}))
    },
    async listLiveNodes(since) {
      return (q.live.all(since) as {node_id: string}[]).map((row) => row.node_id)
    },
    async removeNode(nodeId) {
      remove(nodeId)
    },
    async sweepNodes(staleBefore) {
      return sweep(staleBefore)
    },
  }
}
