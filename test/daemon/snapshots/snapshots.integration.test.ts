import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const ORIGINAL = '# Demo\n\nHow to join.\n'
let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** A daemon whose clock the test moves, with public/README.md rewritten twice (two snapshots). */
async function withHistory() {
  const clock = {now: Date.parse('2026-01-05T10:00:00.000Z')}
  harness = await startHarness({clock: () => clock.now})
  const {writer} = harness.running.daemon.context
  clock.now = Date.parse('2026-01-05T11:00:00.000Z')
  await writer.write('public/README.md', '# Demo v2\n', {reason: 'test.edit'})
  clock.now = Date.parse('2026-01-05T12:00:00.000Z')
  await writer.write('public/README.md', '# Demo v3\n', {reason: 'test.edit'})
  clock.now = Date.parse('2026-01-05T13:00:00.000Z')
  const file = join(harness.repo.root, '.mesh/public/README.md')
  return {h: harness, clock, read: () => readFileSync(file, 'utf8')}
}

const restore = (h: DaemonHarness, body: unknown) => h.call('POST', '/snapshots/restore', {auth: true, body: typeof body === 'string' ? body : JSON.stringify(body)})

describe('snapshots: list and restore', () => {
  it('lists the snapshots of a file, newest first, behind the portal token', async () => {
    const {h} = await withHistory()
    const listed = await h.call('GET', '/snapshots?path=public/README.md', {auth: true})
    expect(listed.status).toBe(200)
    expect(getValidator('daemon-snapshot-list')(listed.body)).toBe(true)
    expect(listed.body.path).toBe('public/README.md')
    expect(listed.body.snapshots.map((s: {ts: string}) => s.ts)).toEqual(['2026-01-05T12:00:00.000Z', '2026-01-05T11:00:00.000Z'])
    expect(listed.body.snapshots[1]).toMatchObject({path: 'public/README.md', snapshot: 'snapshots/2026-01-05/110000.000Z/public/README.md', bytes: Buffer.byteLength(ORIGINAL), reason: 'test.edit'})
    // The same file named from the repository root, or absolutely.
    const fromRoot = await h.call('GET', `/snapshots?path=${encodeURIComponent('.mesh/public/README.md')}`, {auth: true})
    expect(fromRoot.body.snapshots).toHaveLength(2)
    const absolute = await h.call('GET', `/snapshots?path=${encodeURIComponent(join(h.repo.root, '.mesh/public/README.md'))}`, {auth: true})
    expect(absolute.body.snapshots).toHaveLength(2)
    const none = await h.call('GET', '/snapshots?path=public/RESOURCES.md', {auth: true})
    expect(none.body.snapshots).toEqual([])

    const anonymous = await h.call('GET', '/snapshots?path=public/README.md')
    expect(anonymous.status).toBe(401)
  })

  it('restores the file as it was `at` a time, keeps the replaced bytes, and the restore can be undone', async () => {
    const {h, clock, read} = await withHistory()
    const events: DaemonEvent[] = []
    h.running.daemon.context.events.subscribe((event) => events.push(event))

    // At 11:30 the file held v2 (written at 11:00): the rewrite of 12:00 replaced it and kept it.
    const back = await restore(h, {path: '.mesh/public/README.md', at: '2026-01-05T11:30:00Z'})
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({path: 'public/README.md', bytes: Buffer.byteLength('# Demo v2\n'), restored: {ts: '2026-01-05T12:00:00.000Z'}})
    expect(read()).toBe('# Demo v2\n')
    expect(back.body.undo).toMatchObject({ts: '2026-01-05T13:00:00.000Z', path: 'public/README.md', reason: 'restore', snapshot: 'snapshots/2026-01-05/130000.000Z/public/README.md'})
    expect(readFileSync(join(h.repo.root, '.mesh', back.body.undo.snapshot), 'utf8')).toBe('# Demo v3\n')
    expect(events.find((e) => e.type === 'snapshot.restored')?.data).toEqual({path: 'public/README.md', snapshot: 'snapshots/2026-01-05/120000.000Z/public/README.md', snapshot_ts: '2026-01-05T12:00:00.000Z', undo: back.body.undo.snapshot})

    // A time before the first rewrite: the bytes that rewrite replaced (the original). A date means the end of that day.
    clock.now = Date.parse('2026-01-05T14:00:00.000Z')
    expect((await restore(h, {path: 'public/README.md', at: '2026-01-05T10:59:59.999Z'})).body.restored.ts).toBe('2026-01-05T11:00:00.000Z')
    expect(read()).toBe(ORIGINAL)
    expect((await restore(h, {path: 'public/README.md', at: '2026-01-04'})).body.restored.ts).toBe('2026-01-05T11:00:00.000Z')
    // A rewrite at exactly `at` had happened by then: the file held what it wrote.
    expect((await restore(h, {path: 'public/README.md', at: '2026-01-05T11:00:00Z'})).body.restored.ts).toBe('2026-01-05T12:00:00.000Z')
    expect(read()).toBe('# Demo v2\n')

    // `before`: the latest snapshot taken at or before it (the bytes that rewrite replaced) — the way to undo.
    clock.now = Date.parse('2026-01-05T15:00:00.000Z')
    const undone = await restore(h, {path: 'public/README.md', before: '2026-01-05T11:30:00Z'})
    expect(undone.body.restored.ts).toBe('2026-01-05T11:00:00.000Z')
    expect(read()).toBe(ORIGINAL)
    // No `at` nor `before`: the latest snapshot, which undoes the last restore.
    const latest = await restore(h, {path: 'public/README.md'})
    expect(latest.body.restored.ts).toBe('2026-01-05T15:00:00.000Z')
    expect(read()).toBe('# Demo v2\n')
  })

  it('answers clear errors for bad input and never touches a file outside .mesh/', async () => {
    const {h, read} = await withHistory()
    const outside = join(h.repo.root, 'mesh.json')
    const before = readFileSync(outside, 'utf8')
    const cases: Array<[unknown, number, string, string?]> = [
      [{path: '../mesh.json'}, 400, 'invalid_path', 'path'],
      [{path: '.mesh/../mesh.json'}, 400, 'invalid_path', 'path'],
      [{path: outside}, 400, 'invalid_path', 'path'],
      [{path: 'public/nothing.md'}, 404, 'snapshot_not_found'],
      [{path: 'public/README.md', before: '2026-01-04'}, 404, 'snapshot_not_found'],
      // No rewrite after it: nothing kept says the file was otherwise then.
      [{path: 'public/README.md', at: '2026-01-05T12:30:00Z'}, 404, 'snapshot_not_found'],
      [{path: 'public/README.md', at: '2026-01-05T10:00:00Z', before: '2026-01-05T12:00:00Z'}, 400, 'invalid_body', 'before'],
      [{path: 'public/README.md', before: 'noon'}, 400, 'invalid_time', 'before'],
      [{path: 'public/README.md', at: 'last tuesday'}, 400, 'invalid_time', 'at'],
      [{path: 'public/README.md', at: '2026-02-30'}, 400, 'invalid_time', 'at'],
      [{path: 'public/README.md', at: 5}, 400, 'invalid_body', 'at'],
      [{path: 7}, 400, 'invalid_body', 'path'],
      [{}, 400, 'invalid_body'],
      [{path: 'public/README.md', extra: true}, 400, 'invalid_body'],
      [{path: 'credentials/portal-token'}, 403, 'restore_not_allowed', 'path'],
      ['{"path":', 400, 'invalid_json'],
    ]
    for (const [body, status, code, field] of cases) {
      const answer = await restore(h, body)
      expect([JSON.stringify(body), answer.status, answer.body.error?.code]).toEqual([JSON.stringify(body), status, code])
      if (field) expect(answer.body.error.field).toBe(field)
    }
    expect(readFileSync(outside, 'utf8')).toBe(before)
    expect(read()).toBe('# Demo v3\n')

    const encoded = await h.call('GET', '/snapshots?path=%2e%2e%2fmesh.json', {auth: true})
    expect([encoded.status, encoded.body.error.code]).toEqual([400, 'invalid_path'])
    const missing = await h.call('GET', '/snapshots', {auth: true})
    expect([missing.status, missing.body.error.code, missing.body.error.field]).toEqual([400, 'invalid_query', 'path'])
    const twice = await h.call('GET', '/snapshots?path=a&path=b', {auth: true})
    expect([twice.status, twice.body.error.code]).toEqual([400, 'invalid_query'])
    const anonymous = await h.call('POST', '/snapshots/restore', {body: JSON.stringify({path: 'public/README.md'})})
    expect(anonymous.status).toBe(401)
  })

  it('refuses a snapshot whose bytes no longer match its index (409 snapshot_corrupt) and skips index lines that point elsewhere', async () => {
    const {h, read} = await withHistory()
    const mesh = join(h.repo.root, '.mesh')
    writeFileSync(join(mesh, 'snapshots/2026-01-05/120000.000Z/public/README.md'), 'tampered\n')
    const corrupt = await restore(h, {path: 'public/README.md'})
    expect([corrupt.status, corrupt.body.error.code]).toEqual([409, 'snapshot_corrupt'])
    expect(read()).toBe('# Demo v3\n')

    // A hand-written index line naming a file outside its day folder is not a snapshot.
    const forged = {ts: '2026-01-05T12:30:00.000Z', path: 'public/README.md', snapshot: 'snapshots/2026-01-05/../../../mesh.json', bytes: 1, sha256: 'a'.repeat(64), reason: 'x'}
    writeFileSync(join(mesh, 'snapshots/2026-01-05/index.jsonl'), readFileSync(join(mesh, 'snapshots/2026-01-05/index.jsonl'), 'utf8') + JSON.stringify(forged) + '\nnot json\n')
    const listed = await h.call('GET', '/snapshots?path=public/README.md', {auth: true})
    expect(listed.body.snapshots.map((s: {ts: string}) => s.ts)).toEqual(['2026-01-05T12:00:00.000Z', '2026-01-05T11:00:00.000Z'])
  })
})

describe('GET /storage/usage', () => {
  it('answers without auth, in the schema, counting the snapshots the writer kept', async () => {
    const {h} = await withHistory()
    const usage = await h.call('GET', '/storage/usage')
    expect(usage.status).toBe(200)
    expect(getValidator('daemon-storage-usage')(usage.body)).toBe(true)
    expect(usage.body.root).toBe(join(h.repo.root, '.mesh'))
    const snapshots = usage.body.buckets.find((b: {name: string}) => b.name === 'snapshots')
    // Two kept copies and the day's index.
    expect(snapshots).toMatchObject({exists: true, files: 3, retention_days: 7})
    expect(usage.body.buckets.find((b: {name: string}) => b.name === 'task_archives')).toMatchObject({exists: true, files: 1})
    expect(usage.body.total_bytes).toBe(usage.body.buckets.reduce((n: number, b: {bytes: number}) => n + b.bytes, 0))
  })
})
