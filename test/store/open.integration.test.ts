import {existsSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {openStorage} from '../../src/store/open.js'
import {PG_URL, dropSchema, uniqueSchema} from '../support/backends.js'

const schema = uniqueSchema('open')
const dirs: string[] = []
afterAll(async () => {
  await dropSchema(schema)
  for (const dir of dirs) await rm(dir, {recursive: true, force: true})
})

describe('openStorage (PostgreSQL)', () => {
  it('opens a pool on the real server with its own schema created, and writes no SQLite file', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'mesh-storage-pg-')), 'data')
    dirs.push(dataDir)
    const storage = await openStorage({dataDir, databaseUrl: PG_URL, databaseSchema: schema})
    if (storage.kind !== 'postgres') throw new Error(`expected postgres, got ${storage.kind}`)
    // Every connection of the pool works in the schema: a table made by one is seen unqualified by another.
    await storage.pool.query('CREATE TABLE probe (x TEXT)')
    const clients = await Promise.all([storage.pool.connect(), storage.pool.connect()])
    for (const client of clients) expect((await client.query('SELECT current_schema() AS s')).rows[0].s).toBe(schema)
    for (const client of clients) client.release()
    const {rows} = await storage.pool.query('SELECT table_schema FROM information_schema.tables WHERE table_name = $1', ['probe'])
    expect(rows).toEqual([{table_schema: schema}])
    expect(existsSync(join(dataDir, 'mesh.db'))).toBe(false)
    await storage.close()
    await storage.close()
    await expect(storage.pool.query('SELECT 1')).rejects.toThrow()
  })

  it('fails with the driver’s error when the server refuses', async () => {
    const refused = openStorage({dataDir: tmpdir(), databaseUrl: 'postgres://postgres@127.0.0.1:1/test', databaseSchema: schema})
    await expect(refused).rejects.toMatchObject({code: 'ECONNREFUSED'})
  })
})
