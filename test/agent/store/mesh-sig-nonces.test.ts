import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {AGENT_NONCES_MIGRATIONS, createSqliteNonceStore} from '../../../src/agent/store/mesh-sig-nonces.js'
import {migrateSqlite, openSqlite} from '../../../src/store/sqlite.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

function open(dataDir?: string) {
  const db = openSqlite({dataDir})
  migrateSqlite(db, AGENT_NONCES_MIGRATIONS)
  return {db, nonces: createSqliteNonceStore(db)}
}

describe('the agent SQLite nonce store', () => {
  it('refuses a live nonce and accepts it again once expired', async () => {
    const {db, nonces} = open()
    expect(await nonces.useNonce('k', 2000, 1000)).toBe(true)
    expect(await nonces.useNonce('k', 2000, 1500)).toBe(false)
    expect(await nonces.useNonce('k', 3000, 2000)).toBe(true)
    expect(await nonces.useNonce('k', 3000, 2500)).toBe(false)
    db.close()
  })

  it('remembers used nonces across a restart on the same data dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mesh-agent-nonces-'))
    dirs.push(dir)
    const first = open(dir)
    expect(await first.nonces.useNonce('pk:n1', 10_000, 1000)).toBe(true)
    first.db.close()
    const second = open(dir)
    expect(await second.nonces.useNonce('pk:n1', 10_000, 2000)).toBe(false)
    expect(await second.nonces.useNonce('pk:n2', 10_000, 2000)).toBe(true)
    second.db.close()
  })
})
