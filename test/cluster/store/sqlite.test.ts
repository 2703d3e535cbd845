import {createSqliteClusterStore} from '../../../src/cluster/store/sqlite.js'
import {openSqlite} from '../../../src/store/sqlite.js'
import {clusterStoreContract} from './store.contract.js'

clusterStoreContract('sqlite', async () => {
  const db = openSqlite()
  return {store: createSqliteClusterStore(db), close: async () => void db.close()}
})
