import {chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {dataDirHolder} from '../../src/store/data-dir-pid.js'
import {openStorage} from '../../src/store/open.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})
async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-storage-'))
  dirs.push(dir)
  return dir
}
const mode = (path: string) => statSync(path).mode & 0o777

describe('openStorage (SQLite)', () => {
  it('creates the data dir owner-only and mesh.db 0600, and SQLite gives its -wal and -shm files the same mode', async () => {
    const dataDir = join(await tempDir(), 'nested', 'data')
    const storage = await openStorage({dataDir})
    expect(storage.kind).toBe('sqlite')
    expect(storage.path).toBe(join(dataDir, 'mesh.db'))
    storage.db.exec('CREATE TABLE t (x TEXT)')
    storage.db.prepare('INSERT INTO t (x) VALUES (?)').run('secret')
    expect(mode(dataDir)).toBe(0o700)
    expect(mode(join(dataDir, '..'))).toBe(0o700)
    for (const file of ['mesh.db', 'mesh.db-wal', 'mesh.db-shm']) expect(mode(join(dataDir, file)), file).toBe(0o600)
    await storage.close()
    await storage.close()
    expect(storage.db.open).toBe(false)
  })

  it('keeps the pid of the process that serves the data dir in mesh.pid (0600) until it closes', async () => {
    const dataDir = await tempDir()
    const storage = await openStorage({dataDir})
    expect(readFileSync(join(dataDir, 'mesh.pid'), 'utf8').trim()).toBe(String(process.pid))
    expect(mode(join(dataDir, 'mesh.pid'))).toBe(0o600)
    expect(dataDirHolder(dataDir)).toBe(process.pid)
    await storage.close()
    expect(existsSync(join(dataDir, 'mesh.pid'))).toBe(false)
    expect(dataDirHolder(dataDir)).toBeNull()
    // A file left by a process that is gone does not count.
    writeFileSync(join(dataDir, 'mesh.pid'), '2147483646\n')
    expect(dataDirHolder(dataDir)).toBeNull()
  })

  it('tightens a database an older mesh left readable by others, and keeps the mode of a folder it did not create', async () => {
    const dataDir = await tempDir()
    chmodSync(dataDir, 0o750)
    const first = await openStorage({dataDir})
    first.db.exec('CREATE TABLE t (x TEXT)')
    await first.close()
    for (const file of ['mesh.db', 'mesh.db-wal']) {
      if (!existsSync(join(dataDir, file))) writeFileSync(join(dataDir, file), '')
      chmodSync(join(dataDir, file), 0o644)
    }
    const again = await openStorage({dataDir})
    expect(again.db.prepare("SELECT name FROM sqlite_master WHERE name = 't'").get()).toEqual({name: 't'})
    for (const file of ['mesh.db', 'mesh.db-wal']) expect(mode(join(dataDir, file)), file).toBe(0o600)
    expect(mode(dataDir)).toBe(0o750)
    await again.close()
  })

  it('fails when the data dir is a file', async () => {
    const file = join(await tempDir(), 'not-a-dir')
    mkdirSync(join(file, '..'), {recursive: true})
    writeFileSync(file, 'x')
    await expect(openStorage({dataDir: file})).rejects.toMatchObject({code: 'EEXIST'})
  })
})
