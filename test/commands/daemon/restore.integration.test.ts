import {createHash} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

const FILE = '.mesh/public/README.md'
const CURRENT = '# Demo\n\nHow to join.\n'
let repo: FixtureRepo | undefined
let server: SpawnedCli | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
  repo?.cleanup()
  repo = undefined
})

/** A snapshot as the project writer keeps it: the copy under its day and time, and its index line. */
function seedSnapshot(target: FixtureRepo, ts: string, text: string) {
  const day = ts.slice(0, 10)
  const snapshot = `snapshots/${day}/${ts.slice(11).replace(/:/g, '')}/public/README.md`
  target.write(`.mesh/${snapshot}`, text)
  const index = `.mesh/snapshots/${day}/index.jsonl`
  const line = JSON.stringify({ts, path: 'public/README.md', snapshot, bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex'), reason: 'test.edit'})
  target.write(index, (existsSync(join(target.root, index)) ? target.read(index) : '') + line + '\n')
}

/** Two snapshots of public/README.md, two hours and one hour ago (recent: the daemon's pruning keeps them). */
function repoWithHistory() {
  repo = makeRepo()
  const older = new Date(Date.now() - 2 * 3600_000).toISOString()
  const newer = new Date(Date.now() - 3600_000).toISOString()
  seedSnapshot(repo, older, '# Demo v1\n')
  seedSnapshot(repo, newer, '# Demo v2\n')
  return {repo, older, newer, between: new Date(Date.now() - 90 * 60_000).toISOString()}
}

describe('mesh daemon restore', () => {
  it('without a daemon: lists, restores the file as it was --at a time or the snapshot --before one, and the restore can be undone', async () => {
    const {repo, older, newer, between} = repoWithHistory()
    const listed = await runCli(['daemon', 'restore', FILE, '--list', '--json'], {cwd: repo.root})
    expect(listed.code).toBe(0)
    expect(json(listed)).toMatchObject({path: 'public/README.md', via: 'local'})
    expect(json(listed).snapshots.map((s: {ts: string}) => s.ts)).toEqual([newer, older])

    // Between the two rewrites the file held v2: the later rewrite replaced (and kept) it.
    const restored = await runCli(['daemon', 'restore', 'public/README.md', '--at', between, '--json'], {cwd: repo.root})
    expect(restored.code).toBe(0)
    const answer = json(restored)
    expect(answer).toMatchObject({path: 'public/README.md', via: 'local', restored: {ts: newer}, undo: {path: 'public/README.md', reason: 'restore'}})
    expect(repo.read(FILE)).toBe('# Demo v2\n')
    expect(repo.read(`.mesh/${answer.undo.snapshot}`)).toBe(CURRENT)

    // --before: the latest snapshot taken at or before it, as --list shows them.
    const before = await runCli(['daemon', 'restore', FILE, '--before', between, '--json'], {cwd: repo.root})
    expect(json(before)).toMatchObject({via: 'local', restored: {ts: older}})
    expect(repo.read(FILE)).toBe('# Demo v1\n')

    // Human output names the way back; taking it brings the replaced bytes back.
    const undo = await runCli(['daemon', 'restore', join(repo.root, FILE), '--before', answer.undo.ts], {cwd: join(repo.root, '.mesh', 'docs')})
    expect(undo.code).toBe(0)
    expect(undo.stdout).toMatch(/^restored public\/README\.md from the snapshot of /)
    expect(undo.stdout).toMatch(/undo with: mesh daemon restore public\/README\.md --before /)
    expect(repo.read(FILE)).toBe(CURRENT)
  })

  it('refuses bad input clearly: a bad time is a usage error (exit 2), a path outside .mesh/ or an unknown file exit 1', async () => {
    const {repo} = repoWithHistory()
    const badTime = await runCli(['daemon', 'restore', FILE, '--at', 'yesterday', '--json'], {cwd: repo.root})
    expect(badTime.code).toBe(2)
    expect(json(badTime).error.code).toBe('usage_bad_time')
    const badTimeText = await runCli(['daemon', 'restore', FILE, '--at', '2026-02-30'], {cwd: repo.root})
    expect(badTimeText.code).toBe(2)
    expect(badTimeText.errorText).toMatch(/--at must be an ISO-8601 date-time with its zone/)

    const outside = await runCli(['daemon', 'restore', '../mesh.json', '--json'], {cwd: repo.root})
    expect(outside.code).toBe(1)
    expect(json(outside).error.code).toBe('invalid_path')
    const escaping = await runCli(['daemon', 'restore', '.mesh/../mesh.json'], {cwd: repo.root})
    expect(escaping.code).toBe(1)
    expect(escaping.errorText).toMatch(/outside \.mesh\//)

    const unknown = await runCli(['daemon', 'restore', 'public/nothing.md', '--json'], {cwd: repo.root})
    expect(unknown.code).toBe(1)
    expect(json(unknown).error).toMatchObject({code: 'snapshot_not_found', message: 'No snapshot of public/nothing.md'})
    const tooEarly = await runCli(['daemon', 'restore', FILE, '--before', '2020-01-01', '--json'], {cwd: repo.root})
    expect(tooEarly.code).toBe(1)
    expect(json(tooEarly).error.code).toBe('snapshot_not_found')

    // No rewrite after --at: the file has been as it is since.
    const tooLate = await runCli(['daemon', 'restore', FILE, '--at', new Date().toISOString(), '--json'], {cwd: repo.root})
    expect(tooLate.code).toBe(1)
    expect(json(tooLate).error).toMatchObject({code: 'snapshot_not_found', message: expect.stringMatching(/^No rewrite of public\/README\.md after .* kept a snapshot/)})

    const both = await runCli(['daemon', 'restore', FILE, '--list', '--at', '2026-01-01'], {cwd: repo.root})
    expect(both.code).toBe(2)
    const atAndBefore = await runCli(['daemon', 'restore', FILE, '--at', '2026-01-01', '--before', '2026-01-01'], {cwd: repo.root})
    expect(atAndBefore.code).toBe(2)
    for (const result of [badTime, badTimeText, outside, escaping, unknown, both, atAndBefore]) expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(repo.read(FILE)).toBe(CURRENT)
  })

  it('with the daemon running: lists and restores through it, --at and --before meaning what they mean here', async () => {
    const {repo, older, newer, between} = repoWithHistory()
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    expect((await server.nextJson()).event).toBe('listening')

    const listed = json(await runCli(['daemon', 'restore', FILE, '--list', '--json'], {cwd: repo.root}))
    expect(listed.via).toBe('daemon')
    expect(listed.snapshots.map((s: {ts: string}) => s.ts)).toEqual([newer, older])

    const restored = await runCli(['daemon', 'restore', FILE, '--json'], {cwd: repo.root})
    expect(restored.code).toBe(0)
    expect(json(restored)).toMatchObject({via: 'daemon', restored: {ts: newer}, undo: {reason: 'restore'}})
    expect(repo.read(FILE)).toBe('# Demo v2\n')
    const before = await runCli(['daemon', 'restore', FILE, '--before', between, '--json'], {cwd: repo.root})
    expect(json(before)).toMatchObject({via: 'daemon', restored: {ts: older}})
    expect(repo.read(FILE)).toBe('# Demo v1\n')
    const at = await runCli(['daemon', 'restore', FILE, '--at', between, '--json'], {cwd: repo.root})
    expect(json(at)).toMatchObject({via: 'daemon', restored: {ts: newer}})
    expect(repo.read(FILE)).toBe('# Demo v2\n')

    const unknown = await runCli(['daemon', 'restore', 'public/nothing.md', '--json'], {cwd: repo.root})
    expect(unknown.code).toBe(1)
    expect(json(unknown).error.code).toBe('snapshot_not_found')
    const forbidden = await runCli(['daemon', 'restore', 'credentials/portal-token', '--json'], {cwd: repo.root})
    expect(forbidden.code).toBe(1)
    expect(json(forbidden).error.code).toBe('restore_not_allowed')
    // The daemon's storage report counts the copy the restore kept beside the two seeded ones.
    const {port} = JSON.parse(readFileSync(join(repo.root, '.mesh/.runtime/daemon.json'), 'utf8'))
    const usage = await fetch(`http://127.0.0.1:${port}/storage/usage`)
    expect(usage.status).toBe(200)
    const snapshots = ((await usage.json()) as {buckets: Array<{name: string; files: number}>}).buckets.find((b) => b.name === 'snapshots')
    expect(snapshots?.files).toBeGreaterThanOrEqual(4)
  })
})
