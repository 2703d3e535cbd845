import {openPostgres} from '../../../src/store/postgres.js'
import {createPostgresRegistryStore} from '../../../src/registry/store/postgres.js'
import {dropSchema, PG_URL, uniqueSchema} from '../../support/backends.js'
import {registryStoreContract} from './store.contract.js'

registryStoreContract('postgres', async () => {
  const schema = uniqueSchema('reg')
  const pool = await openPostgres({url: PG_URL, schema, max: 4})
  const store = await createPostgresRegistryStore({pool, closePool: true})
  return {store, cleanup: () => dropSchema(schema)}
})
