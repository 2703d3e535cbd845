import {afterAll} from 'vitest'
import {createPostgresNodeTable} from '../../src/store/nodes/postgres.js'
import {migratePostgres, openPostgres} from '../../src/store/postgres.js'
import {PG_URL, dropSchema, uniqueSchema} from '../support/backends.js'
import {AREA_TABLES, nodeTableContract} from './nodes.contract.js'

const schemas: string[] = []
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema)
})

nodeTableContract('postgres (real server)', async () => {
  const schema = uniqueSchema('nodes')
  schemas.push(schema)
  const pool = await openPostgres({url: PG_URL, schema})
  await migratePostgres(pool, [{area: 'demo', version: 1, sql: AREA_TABLES}])
  return {
    table: createPostgresNodeTable(pool, {nodes: 'demo_nodes', presence: 'demo_presence'}),
    addPresence: async (nodeId, key) => void (await pool.query('INSERT INTO demo_presence (node_id, key) VALUES ($1, $2)', [nodeId, key])),
    presence: async () => (await pool.query("SELECT node_id || ':' || key AS row FROM demo_presence ORDER BY row")).rows.map((r) => r.row as string),
    close: () => pool.end(),
  }
})
