import {openSqlite} from '../../../src/store/sqlite.js'
import {createSqliteRegistryStore} from '../../../src/registry/store/sqlite.js'
import {registryStoreContract} from './store.contract.js'

// In-memory SQLite: same SQL and engine as the file database, no disk.
registryStoreContract('sqlite', async () => {
  const db = openSqlite()
  return {store: createSqliteRegistryStore({db, closeDb: true}), cleanup: async () => {}}
})
