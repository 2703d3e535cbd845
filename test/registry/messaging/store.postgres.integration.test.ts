import {afterAll} from 'vitest'
import {createPostgresMessagingStore} from '../../../src/registry/messaging/store/postgres.js'
import {openPostgres, type PgPool} from '../../../src/store/postgres.js'
import {PG_URL, dropSchema, uniqueSchema} from '../../support/backends.js'
import {messagingStoreContract} from './store.contract.js'

const opened: {pool: PgPool; schema: string}[] = []
afterAll(async () => {
  for (const {pool, schema} of opened) {
    await pool.end()
    await dropSchema(schema)
  }
})

// One schema per test: each starts from an empty store, like the other adapters.
messagingStoreContract('postgres', async () => {
  const schema = uniqueSchema('msg')
  const pool = await openPostgres({url: PG_URL, schema})
  opened.push({pool, schema})
  return createPostgresMessagingStore(pool)
})
