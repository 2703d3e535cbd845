export type {Migration} from './migrations.js'
export {openSqlite, migrateSqlite, type SqliteDatabase} from './sqlite.js'
export {openPostgres, migratePostgres, type PgPool} from './postgres.js'
