/**
 * openStorage: the one way a server process opens its database — SQLite in
 * its data dir, or PostgreSQL when a URL is given (docs/architecture.md,
 * Storage). Every `serve` goes through it, so the file modes, the pragmas
 * and the schema handling are the same for all of them. The drivers are
 * imported lazily: a SQLite server never loads `pg`, and the reverse.
 */
import type {PgPool} from './postgres.js'
import type {SqliteDatabase} from './sqlite.js'

export interface SqliteStorage {
  kind: 'sqlite'
  db: SqliteDatabase
  /** The database file, `<dataDir>/mesh.db` (mode 0600). */
  path: string
  /** Closes the database and removes the data dir's pid file (data-dir-pid.ts); idempotent. */
  close(): Promise<void>
}

export interface PostgresStorage {
  kind: 'postgres'
  pool: PgPool
  /** Ends the pool; idempotent. */
  close(): Promise<void>
}

export type Storage = SqliteStorage | PostgresStorage

export interface OpenStorageOptions {
  /** Data dir: SQLite's `mesh.db` lives here (folder created 0700, file 0600) when no databaseUrl is given. */
  dataDir: string
  /** postgres://… — several nodes share it. */
  databaseUrl?: string
  /** PostgreSQL schema, created when missing (default public). */
  databaseSchema?: string
}

/** SQLite in the data dir (the agent's own state has no other backend). */
export function openStorage(options: {dataDir: string}): Promise<SqliteStorage>
/** PostgreSQL when `databaseUrl` is set, else SQLite in the data dir. */
export function openStorage(options: OpenStorageOptions): Promise<Storage>
export async function openStorage(options: OpenStorageOptions): Promise<Storage> {
  if (options.databaseUrl) {
    const {openPostgres} = await import('./postgres.js')
    const pool = await openPostgres({url: options.databaseUrl, schema: options.databaseSchema})
    let ended: Promise<void> | undefined
    return {kind: 'postgres', pool, close: () => (ended ??= pool.end())}
  }
  const [{openSqlite}, {holdDataDir}] = await Promise.all([import('./sqlite.js'), import('./data-dir-pid.js')])
  const db = openSqlite({dataDir: options.dataDir})
  // `mesh registry restore` refuses a data dir whose pid file names a live process.
  const release = await holdDataDir(options.dataDir).catch((error: unknown) => {
    db.close()
    throw error
  })
  return {
    kind: 'sqlite',
    db,
    path: db.name,
    async close() {
      if (db.open) db.close()
      release()
    },
  }
}
