import {afterAll, describe, expect, it} from 'vitest'
import {migratePostgres, openPostgres} from '../../src/store/postgres.js'
import {migrateSqlite, openSqlite} from '../../src/store/sqlite.js'
import type {Migration} from '../../src/store/migrations.js'
import {PG_URL, dropSchema, uniqueSchema} from '../support/backends.js'

const steps: Migration[] = [
  {area: 'demo', version: 2, sql: 'ALTER TABLE demo ADD COLUMN b TEXT'},
  {area: 'demo', version: 1, sql: 'CREATE TABLE demo (a TEXT)'},
]

describe('migrations', () => {
  it('SQLite applies steps in order, once', () => {
    const db = openSqlite()
    migrateSqlite(db, steps)
    migrateSqlite(db, steps)
    db.prepare('INSERT INTO demo (a, b) VALUES (?, ?)').run('x', 'y')
    expect(db.prepare('SELECT count(*) AS n FROM mesh_migrations').get()).toEqual({n: 2})
  })

  const schema = uniqueSchema('mig')
  afterAll(() => dropSchema(schema))
  it('PostgreSQL applies steps once even when two nodes migrate at the same time', async () => {
    const [p1, p2] = await Promise.all([openPostgres({url: PG_URL, schema}), openPostgres({url: PG_URL, schema})])
    await Promise.all([migratePostgres(p1, steps), migratePostgres(p2, steps)])
    await p1.query(`INSERT INTO demo (a, b) VALUES ('x', 'y')`)
    const {rows} = await p2.query('SELECT count(*)::int AS n FROM mesh_migrations')
    expect(rows[0].n).toBe(2)
    await Promise.all([p1.end(), p2.end()])
  })
})
