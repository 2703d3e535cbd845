import {afterAll} from 'vitest'
import {createSqliteMessagingStore} from '../../../src/registry/messaging/store/sqlite.js'
import {openSqlite, type SqliteDatabase} from '../../../src/store/sqlite.js'
import {messagingStoreContract} from './store.contract.js'

const opened: SqliteDatabase[] = []
afterAll(() => opened.forEach((db) => db.close()))

messagingStoreContract('sqlite', async () => {
  const db = openSqlite()
  opened.push(db)
  return createSqliteMessagingStore(db)
})
