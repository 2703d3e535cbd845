/**
 * Issue 18, "no symlink on any daemon path" — the writes. The real binary
 * serves a project made by `mesh init`; links are put where the daemon
 * writes (the snapshots folder, a day folder, a day's index, the timeline,
 * a card, a task file, uploads/) and every attack is driven over HTTP: the
 * daemon never reads through a link into a snapshot, never writes that back
 * on a restore, and never creates, appends or deletes anything outside
 * `.mesh/`. A `.mesh` that is itself a link is not served at all.
 */
import {existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync} from 'node:fs'
import {randomBytes} from 'node:crypto'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {writeScriptTeam} from '../../daemon/chat/script-team.js'

/** Text that lives only outside the project: it must never show up inside `.mesh/`. */
const OUTSIDE_MARKER = `outside-secret-${randomBytes(8).toString('hex')}`
const DAY_MS = 24 * 60 * 60 * 1000

let parent: string
let root: string
let outside: string
let server: SpawnedCli
let url: string
let token: string
let taskId: string

const mesh = (...parts: string[]) => join(root, '.mesh', ...parts)

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(url + path, {method, headers: {authorization: `Bearer ${token}`, ...(body !== undefined ? {'content-type': 'application/json'} : {})}, body: body === undefined ? undefined : JSON.stringify(body)})
  const text = await response.text()
  return {status: response.status, text, body: text ? JSON.parse(text) : null}
}

/** Every file under `dir` (links not followed), as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path).map((file) => join(entry.name, file)) : [entry.name]
  })
}

/** No kept copy, no index line under `.mesh/snapshots/` holds outside content. */
const expectNoOutsideContentInSnapshots = () => {
  for (const file of filesUnder(mesh('snapshots'))) {
    const path = mesh('snapshots', file)
    if (lstatSync(path).isFile()) expect(readFileSync(path, 'utf8'), file).not.toContain(OUTSIDE_MARKER)
  }
}

/** A fresh empty folder outside the project, to point a link at. */
const outsideFolder = (name: string) => {
  const dir = join(outside, name)
  mkdirSync(dir, {recursive: true})
  return dir
}

/** The UTC days around now: the daemon's write falls on one of them, whatever the hour. */
const daysAroundNow = () => [-1, 0, 1].map((offset) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10))

/** A member card outside the project, sound, whose prompt holds the marker. */
const outsideCard = (id: string) => {
  const path = join(outside, `${id}-card.md`)
  writeFileSync(path, `---\n${stringify({id, title: 'Outside', client: 'claude', model: 'opus', context: [], exposure: 'internal'})}---\nYou know ${OUTSIDE_MARKER}.\n`)
  return path
}

/** A write through the project writer that keeps a snapshot: the architect's title. */
const patchArchitect = (title: string) => call('PATCH', '/team/architect', {title})

async function debugLines(tag: string): Promise<Array<{lvl: string; msg: string; data?: Record<string, unknown>}>> {
  return (await call('GET', `/debug/tail?tag=${tag}&last=600`)).body.events
}

/** Polls the debug stream until a line of `tag` matches (the daemon writes in the background). */
async function waitForDebug(tag: string, match: (line: {lvl: string; msg: string; data?: Record<string, unknown>}) => boolean) {
  for (;;) {
    const found = (await debugLines(tag)).find(match)
    if (found) return found
    await sleep(50)
  }
}

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'mesh-link-writes-'))
  outside = join(parent, 'outside')
  mkdirSync(outside)
  expect((await runCli(['init', 'demo', '--yes'], {cwd: parent})).code).toBe(0)
  root = join(parent, 'demo')
  taskId = json(await runCli(['task', 'create', '--module', 'project', '--title', 'Linked task', '--json'], {cwd: root})).id
  writeScriptTeam(root, [{id: 'scribe', replies: [{say: 'a line for the timeline'}]}])
  server = spawnCli(['serve', '--port', '0', '--json'], {cwd: root})
  url = (await server.nextJson()).url
  token = (await runCli(['daemon', 'token'], {cwd: root})).stdout.trim().split(/\s+/).pop()!
})

afterAll(async () => {
  await server?.stop()
  rmSync(parent, {recursive: true, force: true})
})

describe('the snapshot store behind a link', () => {
  it('refuses a write when .mesh/snapshots is a link, and creates nothing where it points', async () => {
    const target = outsideFolder('snapshots-target')
    symlinkSync(target, mesh('snapshots'))
    const before = readFileSync(mesh('team', 'architect.md'), 'utf8')
    const patched = await patchArchitect('Through a linked snapshots folder')
    expect(patched.status).toBe(409)
    expect(patched.body.error).toMatchObject({code: 'path_refused', message: expect.stringMatching(/\.mesh\/snapshots is a symbolic link/)})
    expect(filesUnder(target)).toEqual([])
    // Snapshot first: the write that could not keep one did not happen.
    expect(readFileSync(mesh('team', 'architect.md'), 'utf8')).toBe(before)
    unlinkSync(mesh('snapshots'))
  })

  it('refuses a write when the day folder is a link, and creates nothing where it points', async () => {
    const target = outsideFolder('day-target')
    mkdirSync(mesh('snapshots'), {recursive: true})
    for (const day of daysAroundNow()) symlinkSync(target, mesh('snapshots', day))
    const patched = await patchArchitect('Through a linked day folder')
    expect(patched.status).toBe(409)
    expect(patched.body.error.code).toBe('path_refused')
    expect(filesUnder(target)).toEqual([])
    for (const day of daysAroundNow()) unlinkSync(mesh('snapshots', day))
  })

  it('refuses to append to a day index that is a link, to a file or to nothing yet', async () => {
    const target = outsideFolder('index-target')
    writeFileSync(join(target, 'existing.jsonl'), 'ORIGINAL\n')
    const days = daysAroundNow()
    for (const [n, day] of days.entries()) {
      mkdirSync(mesh('snapshots', day), {recursive: true})
      // One day's index points at an existing file, the others at files that do not exist yet.
      symlinkSync(join(target, n === 1 ? 'existing.jsonl' : `new-${day}.jsonl`), mesh('snapshots', day, 'index.jsonl'))
    }
    const patched = await patchArchitect('Through a linked index')
    expect(patched.status).toBe(409)
    expect(patched.body.error).toMatchObject({code: 'path_refused', message: expect.stringMatching(/index\.jsonl is a symbolic link/)})
    expect(readFileSync(join(target, 'existing.jsonl'), 'utf8')).toBe('ORIGINAL\n')
    expect(filesUnder(target)).toEqual(['existing.jsonl'])
    rmSync(mesh('snapshots'), {recursive: true, force: true})
    // With a real store again, the same write goes through.
    expect((await patchArchitect('Architect')).status).toBe(200)
  })
})

describe('a link at the file the daemon rewrites', () => {
  it('a task transition never reads a linked task file nor copies its target into .mesh/', async () => {
    const taskFile = readdirSync(mesh('modules', 'project', 'tasks')).find((name) => name.startsWith(`${taskId}-`))!
    const targetPath = join(outside, taskFile)
    writeFileSync(targetPath, readFileSync(mesh('modules', 'project', 'tasks', taskFile), 'utf8') + `\n${OUTSIDE_MARKER}\n`)
    const targetBefore = readFileSync(targetPath, 'utf8')
    unlinkSync(mesh('modules', 'project', 'tasks', taskFile))
    symlinkSync(targetPath, mesh('modules', 'project', 'tasks', taskFile))
    const moved = await call('POST', `/tasks/${taskId}/transition`, {status: 'active'})
    expect(moved.status).toBe(409)
    expect(moved.body.error.message).toMatch(/symbolic link/)
    expectNoOutsideContentInSnapshots()
    expect(lstatSync(mesh('modules', 'project', 'tasks', taskFile)).isSymbolicLink()).toBe(true)
    expect(readFileSync(targetPath, 'utf8')).toBe(targetBefore)
  })

  it('deleting a linked card removes the link alone: no snapshot of its target, nothing to restore', async () => {
    const target = outsideCard('stray')
    symlinkSync(target, mesh('team', 'stray.md'))
    const deleted = await call('DELETE', '/team/stray')
    expect(deleted.status).toBe(200)
    expect(existsSync(mesh('team', 'stray.md'))).toBe(false)
    expect(readFileSync(target, 'utf8')).toContain(OUTSIDE_MARKER)
    expectNoOutsideContentInSnapshots()
    const restored = await call('POST', '/snapshots/restore', {path: 'team/stray.md'})
    expect(restored.status).toBe(404)
    expect(restored.body.error.code).toBe('snapshot_not_found')
    expect(existsSync(mesh('team', 'stray.md'))).toBe(false)
  })

  it('a restore over a linked file replaces the link, keeps no snapshot of its target, and no later restore brings the target back', async () => {
    expect((await call('POST', '/team', {id: 'keeper', title: 'Keeper', prompt: 'FIRST PROMPT\n'})).status).toBe(201)
    expect((await call('PATCH', '/team/keeper', {prompt: 'SECOND PROMPT\n'})).status).toBe(200)
    const target = outsideCard('keeper')
    const targetBefore = readFileSync(target, 'utf8')
    unlinkSync(mesh('team', 'keeper.md'))
    symlinkSync(target, mesh('team', 'keeper.md'))

    const restored = await call('POST', '/snapshots/restore', {path: 'team/keeper.md'})
    expect(restored.status).toBe(200)
    expect(restored.body.undo).toBeNull()
    expect(lstatSync(mesh('team', 'keeper.md')).isFile()).toBe(true)
    expect(readFileSync(mesh('team', 'keeper.md'), 'utf8')).toContain('FIRST PROMPT')
    expect(readFileSync(target, 'utf8')).toBe(targetBefore)
    expectNoOutsideContentInSnapshots()

    // Undoing (restoring the latest snapshot) again and again never writes the link's target into .mesh/.
    for (let n = 0; n < 2; n++) {
      expect((await call('POST', '/snapshots/restore', {path: 'team/keeper.md'})).status).toBe(200)
      expect(readFileSync(mesh('team', 'keeper.md'), 'utf8')).not.toContain(OUTSIDE_MARKER)
    }
    expectNoOutsideContentInSnapshots()
  })
})

describe('the timeline behind a link', () => {
  it('appends nothing where a linked timeline folder points', async () => {
    const target = outsideFolder('timeline-target')
    if (existsSync(mesh('timeline'))) renameSync(mesh('timeline'), mesh('timeline.real'))
    symlinkSync(target, mesh('timeline'))
    const sent = await call('POST', '/chat/send', {member: 'scribe', text: 'write something'})
    expect(sent.status).toBe(202)
    // Either the daemon says it refused the append, or (what must not happen) the lines landed outside.
    let refused: {msg: string} | undefined
    while (!refused && filesUnder(target).length === 0) {
      refused = (await debugLines('timeline')).find((line) => line.lvl === 'error' && /timeline\/\d{4}-\d{2}-\d{2}\.jsonl/.test(line.msg))
      if (!refused) await sleep(50)
    }
    expect(filesUnder(target)).toEqual([])
    expect(refused?.msg).toMatch(/\.mesh\/timeline is a symbolic link/)
    unlinkSync(mesh('timeline'))
    if (existsSync(mesh('timeline.real'))) renameSync(mesh('timeline.real'), mesh('timeline'))
  })
})

describe('links where the daemon prunes or starts', () => {
  let other: string
  beforeAll(async () => {
    other = join(parent, 'other')
    mkdirSync(other)
    expect((await runCli(['init', 'demo', '--yes'], {cwd: other})).code).toBe(0)
  })

  it('deletes nothing where a linked uploads/ or snapshots/ points when it prunes at start', async () => {
    const project = join(other, 'demo')
    const uploads = outsideFolder('uploads-target')
    const old = join(uploads, 'old-upload.bin')
    writeFileSync(old, 'kept')
    const longAgo = new Date(Date.now() - 90 * DAY_MS)
    utimesSync(old, longAgo, longAgo)
    const snapshots = outsideFolder('snapshots-prune-target')
    mkdirSync(join(snapshots, '2020-01-01'))
    writeFileSync(join(snapshots, '2020-01-01', 'kept.md'), 'kept')
    symlinkSync(uploads, join(project, '.mesh', 'uploads'))
    symlinkSync(snapshots, join(project, '.mesh', 'snapshots'))

    const daemon = spawnCli(['serve', '--port', '0', '--json'], {cwd: project})
    try {
      // The calls below go to this daemon from here on (the first one's tests are done).
      url = (await daemon.nextJson()).url
      token = (await runCli(['daemon', 'token'], {cwd: project})).stdout.trim().split(/\s+/).pop()!
      const pass = await waitForDebug('storage.prune', () => true)
      expect(pass).toMatchObject({lvl: 'warn', data: {snapshot_days_removed: [], uploads_removed: 0, errors: ['snapshots: path_refused', 'uploads: path_refused']}})
    } finally {
      await daemon.stop()
    }
    expect(existsSync(old)).toBe(true)
    expect(statSync(old).mtimeMs).toBeLessThan(Date.now() - 60 * DAY_MS)
    expect(existsSync(join(snapshots, '2020-01-01', 'kept.md'))).toBe(true)
  })

  it('refuses to serve a .mesh that is a link, writing nothing where it points', async () => {
    const project = join(other, 'demo')
    const real = join(outside, 'real-mesh')
    renameSync(join(project, '.mesh'), real)
    symlinkSync(real, join(project, '.mesh'))
    const before = filesUnder(real).sort()
    const daemon = spawnCli(['serve', '--port', '0', '--json'], {cwd: project})
    // With --json the refusal is the first line (a daemon that started would print its `listening` line).
    try {
      const first = await daemon.nextJson()
      expect(first.error).toEqual({code: 'mesh_dir_is_link', message: expect.stringMatching(/^\.mesh in .* is a symbolic link; the daemon serves only a real \.mesh\/ folder/)})
      expect(await daemon.exited).toBe(1)
    } finally {
      await daemon.stop()
    }
    expect(filesUnder(real).sort()).toEqual(before)
  })
})
