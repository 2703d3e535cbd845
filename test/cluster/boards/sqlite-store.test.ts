import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {createSqliteBoardStore} from '../../../src/cluster/boards/sqlite.js'
import {openSqlite} from '../../../src/store/sqlite.js'
import {board, boardStoreContract, post} from './store.contract.js'

boardStoreContract('sqlite (in memory)', async () => {
  const db = openSqlite()
  return {store: createSqliteBoardStore(db), close: async () => void db.close()}
})

describe('SQLite board store on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-boards-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('keeps boards and posts across a reopen, migrating once', async () => {
    const first = openSqlite({dataDir: dir})
    const store = createSqliteBoardStore(first)
    const b = board('c_one', 'rides')
    const p = post(b, {expiresAtMs: null})
    await store.insertBoard(b)
    await store.insertPost(p, {cap: 10, nowMs: 0})
    first.close()
    const second = openSqlite({dataDir: dir})
    const reopened = createSqliteBoardStore(second)
    expect(await reopened.getBoard('c_one', 'rides')).toEqual(b)
    expect(await reopened.getPost('c_one', p.postId, 1)).toEqual(p)
    expect(second.prepare("SELECT count(*) AS n FROM mesh_migrations WHERE area = 'boards'").get()).toEqual({n: 1})
    second.close()
  })
})
