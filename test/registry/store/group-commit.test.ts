import {describe, expect, it} from 'vitest'
import {openSqlite} from '../../../src/store/sqlite.js'
import {createGroupCommit} from '../../../src/registry/store/group-commit.js'

function table() {
  const db = openSqlite()
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)')
  const insert = db.prepare('INSERT INTO t (k, v) VALUES (?, ?)')
  const all = () => db.prepare('SELECT k, v FROM t ORDER BY k').all()
  return {db, insert, all}
}

describe('group commit', () => {
  it('runs the writes of one turn in one transaction and answers each after the commit', async () => {
    const {db, insert, all} = table()
    const batch = createGroupCommit(db)
    let transactions = 0
    const seen: boolean[] = []
    const results = await Promise.all(['a', 'b', 'c'].map((k, i) => batch.run(() => {
      seen.push(db.inTransaction)
      if (i === 0) transactions++
      return insert.run(k, i).changes
    })))
    expect(results).toEqual([1, 1, 1])
    expect(seen).toEqual([true, true, true])
    expect(transactions).toBe(1)
    expect(all()).toEqual([{k: 'a', v: 0}, {k: 'b', v: 1}, {k: 'c', v: 2}])
  })
  it('fails only the write that threw; its neighbours are committed', async () => {
    const {db, insert, all} = table()
    const batch = createGroupCommit(db)
    const outcomes = await Promise.allSettled([
      batch.run(() => insert.run('a', 1).changes),
      batch.run(() => insert.run('a', 2).changes), // primary key taken
      batch.run(() => insert.run('b', 3).changes),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('UNIQUE')
    expect(all()).toEqual([{k: 'a', v: 1}, {k: 'b', v: 3}])
  })
  it('commits what is queued on flush, before the database closes', async () => {
    const {db, insert, all} = table()
    const batch = createGroupCommit(db)
    const pending = batch.run(() => insert.run('a', 1).changes)
    batch.flush()
    expect(all()).toEqual([{k: 'a', v: 1}])
    db.close()
    expect(await pending).toBe(1)
  })
})
