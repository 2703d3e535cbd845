import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {migrateSqlite, openSqlite} from '../../../src/store/sqlite.js'
import {REGISTRY_SQLITE_MIGRATIONS} from '../../../src/registry/store/migrations.js'
import {createSqliteRegistryStore} from '../../../src/registry/store/sqlite.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

describe('SQLite registry migrations', () => {
  it('moves heartbeat watermarks of a version-1 database to registry_heartbeats, keeping every agent', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mesh-reg-migrate-'))
    dirs.push(dataDir)
    const v1 = openSqlite({dataDir})
    migrateSqlite(v1, REGISTRY_SQLITE_MIGRATIONS.filter((m) => m.version === 1))
    const insert = v1.prepare(`INSERT INTO registry_agents (agent_id, api_key_hash, capabilities, agent_card, created_at_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?, ?)`)
    insert.run('seen', 'a'.repeat(64), '["x"]', '{"name":"Seen"}', 1000, 5000)
    insert.run('never', 'b'.repeat(64), '[]', null, 2000, null)
    v1.close()

    const db = openSqlite({dataDir})
    const store = createSqliteRegistryStore({db, closeDb: true})
    expect(await store.getAgent('seen')).toMatchObject({agentId: 'seen', lastSeenMs: 5000, agentCard: {name: 'Seen'}, capabilities: ['x']})
    expect(await store.getAgent('never')).toMatchObject({agentId: 'never', lastSeenMs: null, agentCard: null})
    expect(await store.listSeenBetween(0, 10_000)).toEqual(['seen'])
    expect((await store.listAgents({online: false, onlineSinceMs: 1, limit: 10})).agents.map((a) => a.agentId)).toEqual(['never'])
    expect(await store.touchAgent('never', 6000)).toBeNull()
    expect(await store.touchAgent('seen', 7000)).toBe(5000)
    expect(db.prepare('SELECT agent_id, last_seen_ms FROM registry_heartbeats ORDER BY agent_id').all()).toEqual([
      {agent_id: 'never', last_seen_ms: 6000},
      {agent_id: 'seen', last_seen_ms: 7000},
    ])
    await store.close()
  })
})
