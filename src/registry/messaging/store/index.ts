export * from './store.js'
export {createSqliteMessagingStore} from './sqlite.js'
export {createPostgresMessagingStore} from './postgres.js'
export {MESSAGING_AREA, POSTGRES_MESSAGING_MIGRATIONS, SQLITE_MESSAGING_MIGRATIONS} from './migrations.js'
