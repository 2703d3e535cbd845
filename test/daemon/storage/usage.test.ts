import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {measure} from '../../../src/daemon/storage/measure.js'
import {createUsageReporter, measureUsage} from '../../../src/daemon/storage/usage.js'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, {recursive: true, force: true})
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-storage-'))
  made.push(dir)
  return dir
}

function put(base: string, files: Record<string, number>) {
  for (const [path, size] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), {recursive: true})
    writeFileSync(join(base, path), 'x'.repeat(size))
  }
}

const NOW = Date.parse('2026-01-10T12:00:00.000Z')
const bucket = (usage: Awaited<ReturnType<typeof measureUsage>>, name: string) => usage.buckets.find((b) => b.name === name)

describe('storage report', () => {
  it('has a bucket per growing folder, with sizes, counts, retention and totals summed over the buckets', async () => {
    const mesh = tempDir()
    put(mesh, {
      'timeline/2026-01-09.jsonl': 10,
      'timeline/2026-01-10.jsonl': 20,
      'log/2026-01-10.md': 5,
      'queues/c1.json': 7,
      'uploads/a/one.png': 100,
      'snapshots/2026-01-09/index.jsonl': 3,
      'snapshots/2026-01-09/101010.000Z/public/links.yaml': 40,
      '.runtime/debug.jsonl': 11,
      'workflows/log/2026-01/W1-2026-01-09-x.md': 13,
      'protocols/log/2026-01/P1-2026-01-09-x.md': 17,
      'modules/api/log/2026-01/API1-done.md': 19,
      'modules/web/log/2026-01/WEB1-done.md': 23,
      // Not in any bucket: the committed project files.
      'public/cluster.yaml': 1000,
      'modules/api/tasks/API2-open.md': 1000,
    })
    const usage = await measureUsage(mesh, {snapshotRetentionDays: 9}, NOW)
    expect(getValidator('daemon-storage-usage')(usage)).toBe(true)
    expect(usage.root).toBe(mesh)
    expect(usage.generated_at).toBe('2026-01-10T12:00:00.000Z')
    expect(usage.cache_ttl_secs).toBe(5)
    expect(usage.buckets.map((b) => b.name)).toEqual(['timeline', 'log', 'queues', 'uploads', 'snapshots', 'debug_stream', 'workflows_log', 'protocols_log', 'task_archives'])
    expect(bucket(usage, 'timeline')).toEqual({name: 'timeline', path: 'timeline/', bytes: 30, files: 2, exists: true})
    expect(bucket(usage, 'uploads')).toMatchObject({bytes: 100, files: 1, retention_days: 30})
    expect(bucket(usage, 'snapshots')).toMatchObject({bytes: 43, files: 2, retention_days: 9})
    expect(bucket(usage, 'debug_stream')).toMatchObject({path: '.runtime/debug.jsonl', bytes: 11, files: 1, exists: true, retention_secs: 1800})
    expect(bucket(usage, 'workflows_log')).toMatchObject({bytes: 13, files: 1})
    expect(bucket(usage, 'protocols_log')).toMatchObject({bytes: 17, files: 1})
    expect(bucket(usage, 'task_archives')).toMatchObject({path: 'modules/*/log/', bytes: 42, files: 2, exists: true})
    expect(usage.total_bytes).toBe(30 + 5 + 7 + 100 + 43 + 11 + 13 + 17 + 42)
    expect(usage.total_files).toBe(2 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 2)
  })

  it('reports missing folders as not existing, with zero bytes', async () => {
    const mesh = tempDir()
    put(mesh, {'public/cluster.yaml': 10, 'modules/api/README.md': 3})
    const usage = await measureUsage(mesh, {snapshotRetentionDays: 7}, NOW)
    for (const b of usage.buckets) expect(b).toMatchObject({exists: false, bytes: 0, files: 0})
    expect(usage.total_bytes).toBe(0)
  })

  it('never follows a symlink, to a file or to a folder, nor a bucket that is itself a link', async () => {
    const mesh = tempDir()
    const outside = tempDir()
    put(outside, {'big/huge.bin': 5000, 'secret.txt': 300})
    put(mesh, {'timeline/a.jsonl': 10, 'log/x.md': 4})
    symlinkSync(join(outside, 'big'), join(mesh, 'timeline', 'linked-dir'))
    symlinkSync(join(outside, 'secret.txt'), join(mesh, 'timeline', 'linked-file.jsonl'))
    symlinkSync(join(outside, 'big'), join(mesh, 'uploads'))
    // A loop would never end if links were followed.
    symlinkSync(join(mesh, 'log'), join(mesh, 'log', 'loop'))
    const usage = await measureUsage(mesh, {snapshotRetentionDays: 7}, NOW)
    expect(bucket(usage, 'timeline')).toMatchObject({bytes: 10, files: 1})
    expect(bucket(usage, 'uploads')).toMatchObject({exists: true, bytes: 0, files: 0})
    expect(bucket(usage, 'log')).toMatchObject({bytes: 4, files: 1})
  })

  it('measures a path that is gone as absent rather than failing', async () => {
    const mesh = tempDir()
    expect(await measure(join(mesh, 'nothing', 'here'))).toEqual({exists: false, bytes: 0, files: 0})
  })

  it('serves the cached report for 5 s of the injected clock, then walks again', async () => {
    const mesh = tempDir()
    put(mesh, {'timeline/a.jsonl': 10})
    let now = NOW
    const reporter = createUsageReporter({meshDir: mesh, clock: () => now, settings: () => ({snapshotRetentionDays: 7})})
    const first = await reporter.read()
    expect(first.total_bytes).toBe(10)
    put(mesh, {'timeline/b.jsonl': 5})
    now += 4_999
    const cached = await reporter.read()
    expect(cached.total_bytes).toBe(10)
    expect(cached.generated_at).toBe(first.generated_at)
    now += 1
    const fresh = await reporter.read()
    expect(fresh.total_bytes).toBe(15)
    expect(fresh.generated_at).toBe(new Date(now).toISOString())
    put(mesh, {'timeline/c.jsonl': 1})
    reporter.invalidate()
    expect((await reporter.read()).total_bytes).toBe(16)
  })
})
