import {describe, expect, it} from 'vitest'
import {createMemoryNodeTable} from '../../src/store/nodes/table.js'
import {createSqliteNodeTable} from '../../src/store/nodes/sqlite.js'
import {migrateSqlite, openSqlite} from '../../src/store/sqlite.js'
import {AREA_TABLES, nodeTableContract} from './nodes.contract.js'

nodeTableContract('memory', async () => {
  const rows = new Set<string>()
  const table = createMemoryNodeTable({
    count: (nodeId) => [...rows].filter((row) => row.startsWith(`${nodeId}:`)).length,
    drop: (nodeId) => {
      for (const row of rows) if (row.startsWith(`${nodeId}:`)) rows.delete(row)
    },
  })
  return {table, addPresence: async (nodeId, key) => void rows.add(`${nodeId}:${key}`), presence: async () => [...rows].sort(), close: async () => {}}
})

nodeTableContract('sqlite', async () => {
  const db = openSqlite()
  migrateSqlite(db, [{area: 'demo', version: 1, sql: AREA_TABLES}])
  return {
    table: createSqliteNodeTable(db, {nodes: 'demo_nodes', presence: 'demo_presence'}),
    addPresence: async (nodeId, key) => void db.prepare('INSERT INTO demo_presence (node_id, key) VALUES (?, ?)').run(nodeId, key),
    presence: async () => (db.prepare("SELECT node_id || ':' || key AS row FROM demo_presence ORDER BY row").all() as {row: string}[]).map((r) => r.row),
    close: async () => void db.close(),
  }
})

describe('node table names', () => {
  it('refuses a table name that is not a plain identifier (it goes into SQL text)', () => {
    const db = openSqlite()
    expect(() => createSqliteNodeTable(db, {nodes: 'demo_nodes; DROP TABLE x', presence: 'demo_presence'})).toThrow(TypeError)
    expect(() => createSqliteNodeTable(db, {nodes: 'demo_nodes', presence: 'Presence'})).toThrow('Invalid table name: Presence')
  })
})
