import {existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {expiredDays, pruneStorage} from '../../../src/daemon/storage/prune.js'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, {recursive: true, force: true})
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-prune-'))
  made.push(dir)
  return dir
}

function put(base: string, path: string, size = 10, mtime?: number) {
  mkdirSync(dirname(join(base, path)), {recursive: true})
  writeFileSync(join(base, path), 'x'.repeat(size))
  if (mtime !== undefined) utimesSync(join(base, path), mtime / 1000, mtime / 1000)
}

const DAY = 24 * 60 * 60 * 1000
const NOW = Date.parse('2026-01-10T12:00:00.000Z')

describe('expiredDays', () => {
  it('expires a day only once all of it is older than the retention', () => {
    // Cutoff with 7 days: 2026-01-03T12:00Z. 2026-01-02 ended at 01-03T00:00 (expired); 2026-01-03 ends after the cutoff.
    expect(expiredDays(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-10'], NOW, 7)).toEqual(['2026-01-01', '2026-01-02'])
    expect(expiredDays(['2026-01-09'], NOW, 1)).toEqual([])
    expect(expiredDays(['2026-01-08'], NOW, 1)).toEqual(['2026-01-08'])
    // Names that are no real day are never deleted.
    expect(expiredDays(['2025-02-30', '2025-13-01'], NOW, 1)).toEqual([])
  })
})

describe('pruneStorage', () => {
  it('removes snapshot day folders past retention_days and keeps recent ones and what is not a day folder', async () => {
    const mesh = tempDir()
    put(mesh, 'snapshots/2026-01-01/index.jsonl', 5)
    put(mesh, 'snapshots/2026-01-01/101010.000Z/public/links.yaml', 20)
    put(mesh, 'snapshots/2026-01-02/index.jsonl', 5)
    put(mesh, 'snapshots/2026-01-03/index.jsonl', 5)
    put(mesh, 'snapshots/2026-01-10/index.jsonl', 5)
    put(mesh, 'snapshots/notes/README.md', 5)
    put(mesh, 'snapshots/2020-01-01', 5) // a file named like a day: not a day folder
    const outside = tempDir()
    put(outside, 'keep.txt')
    symlinkSync(outside, join(mesh, 'snapshots', '2019-01-01'))

    const report = await pruneStorage({meshDir: mesh, now: NOW, snapshots: {enabled: true, retentionDays: 7}})
    expect(report.snapshot_days_removed).toEqual(['2026-01-01', '2026-01-02'])
    expect(report.bytes_freed).toBe(30)
    expect(report.errors).toBeUndefined()
    expect(existsSync(join(mesh, 'snapshots/2026-01-01'))).toBe(false)
    expect(existsSync(join(mesh, 'snapshots/2026-01-02'))).toBe(false)
    expect(existsSync(join(mesh, 'snapshots/2026-01-03/index.jsonl'))).toBe(true)
    expect(existsSync(join(mesh, 'snapshots/2026-01-10/index.jsonl'))).toBe(true)
    expect(existsSync(join(mesh, 'snapshots/notes/README.md'))).toBe(true)
    expect(existsSync(join(mesh, 'snapshots/2020-01-01'))).toBe(true)
    expect(existsSync(join(outside, 'keep.txt'))).toBe(true)
  })

  it('follows the retention it is given', async () => {
    const mesh = tempDir()
    put(mesh, 'snapshots/2026-01-08/index.jsonl')
    put(mesh, 'snapshots/2026-01-09/index.jsonl')
    const report = await pruneStorage({meshDir: mesh, now: NOW, snapshots: {enabled: true, retentionDays: 1}})
    expect(report.snapshot_days_removed).toEqual(['2026-01-08'])
    expect(existsSync(join(mesh, 'snapshots/2026-01-09'))).toBe(true)
  })

  it('keeps every snapshot while snapshots.enabled is false, and still prunes uploads', async () => {
    const mesh = tempDir()
    put(mesh, 'snapshots/2025-01-01/index.jsonl')
    put(mesh, 'uploads/old.png', 50, NOW - 31 * DAY)
    const report = await pruneStorage({meshDir: mesh, now: NOW, snapshots: {enabled: false, retentionDays: 7}})
    expect(report).toMatchObject({snapshot_days_removed: [], snapshots_skipped: 'disabled', uploads_removed: 1, bytes_freed: 50})
    expect(existsSync(join(mesh, 'snapshots/2025-01-01/index.jsonl'))).toBe(true)
    expect(existsSync(join(mesh, 'uploads/old.png'))).toBe(false)
  })

  it('removes uploads older than 30 days by mtime, the folders they leave empty, and never a link', async () => {
    const mesh = tempDir()
    put(mesh, 'uploads/old.png', 100, NOW - 30 * DAY - 1)
    put(mesh, 'uploads/recent.png', 7, NOW - 29 * DAY)
    put(mesh, 'uploads/conv-1/old-a.txt', 3, NOW - 40 * DAY)
    put(mesh, 'uploads/conv-1/old-b.txt', 4, NOW - 40 * DAY)
    put(mesh, 'uploads/conv-2/old.txt', 5, NOW - 40 * DAY)
    put(mesh, 'uploads/conv-2/new.txt', 6, NOW - DAY)
    const outside = tempDir()
    put(outside, 'target.txt', 9, NOW - 100 * DAY)
    symlinkSync(join(outside, 'target.txt'), join(mesh, 'uploads', 'link.txt'))

    const report = await pruneStorage({meshDir: mesh, now: NOW, snapshots: {enabled: true, retentionDays: 7}})
    expect(report.uploads_removed).toBe(4)
    expect(report.bytes_freed).toBe(100 + 3 + 4 + 5)
    expect(existsSync(join(mesh, 'uploads/old.png'))).toBe(false)
    expect(existsSync(join(mesh, 'uploads/recent.png'))).toBe(true)
    expect(existsSync(join(mesh, 'uploads/conv-1'))).toBe(false)
    expect(existsSync(join(mesh, 'uploads/conv-2/old.txt'))).toBe(false)
    expect(existsSync(join(mesh, 'uploads/conv-2/new.txt'))).toBe(true)
    expect(existsSync(join(mesh, 'uploads/link.txt'))).toBe(true)
    expect(existsSync(join(outside, 'target.txt'))).toBe(true)
    expect(existsSync(join(mesh, 'uploads'))).toBe(true)
  })

  it('is a no-op on a project without snapshots or uploads', async () => {
    const mesh = tempDir()
    expect(await pruneStorage({meshDir: mesh, now: NOW, snapshots: {enabled: true, retentionDays: 7}})).toEqual({snapshot_days_removed: [], uploads_removed: 0, bytes_freed: 0})
  })
})
