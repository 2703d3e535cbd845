import {SCHEMA_NAME} from './schema-name.js'
import pg from 'pg'
import type {Migration} from './migrations.js'

export type PgPool = pg.Pool

export interface OpenPostgresOptions {
  /** postgres://user@host:port/db */
  url: string
  /** Schema to use (created if missing); tests use one per run. Default: public. */
  schema?: string
  max?: number
}

/** A pool whose every connection uses `schema` as its search_path. */
export async function openPostgres(options: OpenPostgresOptions): Promise<PgPool> {
  const schema = options.schema ?? 'public'
  if (!SCHEMA_NAME.test(schema)) throw new TypeError(`Invalid PostgreSQL schema name: ${schema}`)
  if (schema !== 'public') {
    const admin = new pg.Client({connectionString: options.url})
    await admin.connect()
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    } catch (error) {
      // Two nodes creating the schema at once: the loser sees a duplicate, which is fine.
      if (!['23505', '42P06'].includes((error as {code?: string}).code ?? '')) throw error
    } finally {
      await admin.end()
    }
  }
  // search_path as a startup option: set before the first query of every connection.
  const pool = new pg.Pool({connectionString: options.url, max: options.max ?? 10, options: `-c search_path=${schema}`})
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {})
  return pool
}

// Any constant works; it only has to be the same for every mesh node.
const MIGRATION_LOCK = 0x6d657368

/**
 * Applies pending migrations under an advisory lock, so several nodes
 * starting at once on one database migrate exactly once.
 */
export async function migratePostgres(pool: PgPool, migrations: Migration[]): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    await client.query(`CREATE TABLE IF NOT EXISTS mesh_migrations (
      area TEXT NOT NULL, version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      PRIMARY KEY (area, version))`)
    const ordered = [...migrations].sort((a, b) => a.area.localeCompare(b.area) || a.version - b.version)
    for (const step of ordered) {
      const done = await client.query('SELECT 1 FROM mesh_migrations WHERE area = $1 AND version = $2', [step.area, step.version])
      if (done.rowCount) continue
      await client.query('BEGIN')
      try {
        await client.query(step.sql)
        await client.query('INSERT INTO mesh_migrations (area, version) VALUES ($1, $2)', [step.area, step.version])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
    client.release()
  }
}

/** Runs `work` in one transaction on one pooled client: committed if it resolves, rolled back if it throws. */
export async function inTransaction<T>(pool: PgPool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}
