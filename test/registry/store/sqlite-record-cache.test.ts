import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setImmediate as nextTurn} from 'node:timers/promises'
import {afterEach, describe, expect, it} from 'vitest'
import {openSqlite} from '../../../src/store/sqlite.js'
import {createSqliteRegistryStore} from '../../../src/registry/store/sqlite.js'
import type {NewAgent} from '../../../src/registry/types.js'

const agent = (agentId: string): NewAgent => ({agentId, apiKeyHash: 'a'.repeat(64), pubkey: null, endpoint: null, capabilities: ['x'], createdAtMs: 1000})

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

describe('SQLite store: cached agent records', () => {
  it('hands out copies: what one caller changes, the next read does not see; nested values are frozen', async () => {
    const store = createSqliteRegistryStore({db: openSqlite(), closeDb: true})
    await store.createAgent(agent('alpha'))
    await store.updateAgent('alpha', {agentCard: {name: 'A', tags: ['x']}})
    const first = (await store.getAgent('alpha'))!
    first.displayName = 'changed by a caller'
    expect(() => (first.agentCard as {name: string}).name = 'B').toThrow(TypeError)
    expect(() => first.capabilities.push('y')).toThrow(TypeError)
    expect(await store.getAgent('alpha')).toMatchObject({displayName: null, agentCard: {name: 'A'}, capabilities: ['x']})
    await store.close()
  })
  it('answers every write of this process at once: updates, patches, probes, heartbeats', async () => {
    const store = createSqliteRegistryStore({db: openSqlite(), closeDb: true})
    await store.createAgent(agent('alpha'))
    expect(await store.getApiKeyHash('alpha')).toBe('a'.repeat(64))
    await store.updateAgent('alpha', {apiKeyHash: 'b'.repeat(64)})
    expect(await store.getApiKeyHash('alpha')).toBe('b'.repeat(64))
    await store.getAgent('alpha')
    expect(await store.applyAgentPatch('alpha', {displayName: 'Alpha'})).toBe('changed')
    expect((await store.getAgent('alpha'))!.displayName).toBe('Alpha')
    await store.saveProbe('alpha', {probed_at: '2026-01-01T00:00:00.000Z', card: null, operational: true, card_match: null})
    expect((await store.getAgent('alpha'))!.probe).toMatchObject({operational: true})
    await store.touchAgent('alpha', 5000)
    expect((await store.getAgent('alpha'))!.lastSeenMs).toBe(5000)
    await store.touchAgent('alpha', 4000)
    expect((await store.getAgent('alpha'))!.lastSeenMs).toBe(5000)
    await store.close()
  })
  it('stays equal to the rows when heartbeats and card changes share a transaction, in either order', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mesh-reg-cache-'))
    dirs.push(dataDir)
    const store = createSqliteRegistryStore({db: openSqlite({dataDir}), closeDb: true})
    const truth = createSqliteRegistryStore({db: openSqlite({dataDir}), closeDb: true, recordCacheEntries: 0})
    await store.createAgent(agent('alpha'))
    await store.getAgent('alpha')
    await Promise.all([store.touchAgent('alpha', 7000), store.applyAgentPatch('alpha', {displayName: 'X', agentCard: {name: 'X', n: [1]}})])
    expect(await store.getAgent('alpha')).toEqual(await truth.getAgent('alpha'))
    await Promise.all([store.applyAgentPatch('alpha', {displayName: 'Y', capabilities: ['y']}), store.touchAgent('alpha', 8000)])
    expect(await store.getAgent('alpha')).toEqual(await truth.getAgent('alpha'))
    expect(await store.getAgent('alpha')).toMatchObject({displayName: 'Y', capabilities: ['y'], agentCard: {name: 'X', n: [1]}, lastSeenMs: 8000})
    await store.close()
    await truth.close()
  })
  it('sees what another connection to the same file wrote, from the next event-loop turn', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mesh-reg-cache-'))
    dirs.push(dataDir)
    const here = createSqliteRegistryStore({db: openSqlite({dataDir}), closeDb: true})
    const elsewhere = createSqliteRegistryStore({db: openSqlite({dataDir}), closeDb: true})
    await here.createAgent(agent('alpha'))
    expect((await here.getAgent('alpha'))!.displayName).toBeNull()
    await elsewhere.updateAgent('alpha', {displayName: 'Renamed elsewhere', apiKeyHash: 'c'.repeat(64)})
    await elsewhere.touchAgent('alpha', 9000)
    await nextTurn()
    expect(await here.getAgent('alpha')).toMatchObject({displayName: 'Renamed elsewhere', lastSeenMs: 9000})
    expect(await here.getApiKeyHash('alpha')).toBe('c'.repeat(64))
    await here.close()
    await elsewhere.close()
  })
  it('reads every time with a cache of 0 entries', async () => {
    const db = openSqlite()
    const store = createSqliteRegistryStore({db, closeDb: true, recordCacheEntries: 0})
    await store.createAgent(agent('alpha'))
    await store.getAgent('alpha')
    db.prepare("UPDATE registry_agents SET display_name = 'behind its back' WHERE agent_id = 'alpha'").run()
    expect((await store.getAgent('alpha'))!.displayName).toBe('behind its back')
    await store.close()
  })
  it('holds as many agents as its capacity when they are read in turn, as heartbeats read them', async () => {
    const db = openSqlite()
    const store = createSqliteRegistryStore({db, closeDb: true, recordCacheEntries: 4})
    const ids = ['a1', 'a2', 'a3', 'a4']
    for (const id of ids) await store.createAgent(agent(id))
    for (const id of ids) await store.getAgent(id)
    // A write on the cache's own connection that bypasses the store: only a record read again from the row shows it.
    db.prepare("UPDATE registry_agents SET display_name = 'read from the row'").run()
    for (let round = 0; round < 3; round++) {
      for (const id of ids) expect([id, (await store.getAgent(id))!.displayName]).toEqual([id, null])
    }
    await store.close()
  })
})
