import {afterAll} from 'vitest'
import {createPostgresClusterStore} from '../../../src/cluster/store/postgres.js'
import {openPostgres, type PgPool} from '../../../src/store/postgres.js'
import {dropSchema, PG_URL, uniqueSchema} from '../../support/backends.js'
import {clusterStoreContract} from './store.contract.js'

const schemas: string[] = []
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema)
})

// Each test gets a fresh schema, so rows never leak between tests.
clusterStoreContract('postgres', async () => {
  const schema = uniqueSchema('cluster')
  schemas.push(schema)
  const pool: PgPool = await openPostgres({url: PG_URL, schema})
  return {store: await createPostgresClusterStore(pool), close: () => pool.end()}
})
