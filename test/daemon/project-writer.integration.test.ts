import {existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createProjectWriter} from '../../src/daemon/project-writer.js'
import {MARKERS} from '../../src/standard/constants.js'
import {caught} from '../support/caught.js'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'

let repo: FixtureRepo | undefined
afterEach(() => {
  repo?.cleanup()
  repo = undefined
})

const T = Date.parse('2026-11-24T04:45:01.123Z')
const writerOf = (root: string, snapshots = true) => createProjectWriter({root, clock: () => T, snapshotsEnabled: () => snapshots})

describe('the project writer', () => {
  it('keeps the previous bytes as a snapshot with an index line, then writes', async () => {
    repo = makeRepo()
    const before = repo.read('.mesh/public/README.md')
    const written = await writerOf(repo.root).write('public/README.md', '# New\n', {reason: 'test'})
    expect(repo.read('.mesh/public/README.md')).toBe('# New\n')
    expect(written.snapshot).toMatchObject({path: 'public/README.md', snapshot: 'snapshots/2026-11-24/044501.123Z/public/README.md', reason: 'test', bytes: Buffer.byteLength(before)})
    expect(repo.read(`.mesh/${written.snapshot!.snapshot}`)).toBe(before)
    const index = repo.read('.mesh/snapshots/2026-11-24/index.jsonl').trim().split('\n').map((l) => JSON.parse(l))
    expect(index).toEqual([written.snapshot])
  })

  it('keeps both copies of two rewrites in the same millisecond, and never copies secrets', async () => {
    repo = makeRepo()
    const writer = writerOf(repo.root)
    const first = await writer.write('public/README.md', 'one', {reason: 'test'})
    const second = await writer.write('public/README.md', 'two', {reason: 'test'})
    expect(second.snapshot!.snapshot).toBe('snapshots/2026-11-24/044501.123Z-1/public/README.md')
    expect(repo.read(`.mesh/${second.snapshot!.snapshot}`)).toBe('one')
    expect(first.snapshot!.snapshot).not.toBe(second.snapshot!.snapshot)
    repo.write('.mesh/credentials/team-tokens.yaml', 'old: secret\n')
    expect((await writer.write('credentials/team-tokens.yaml', 'new: secret\n', {reason: 'test'})).snapshot).toBeNull()
  })

  it('writes the bootstrap file mesh.json at the root, the one file outside .mesh/, its previous bytes kept under _root/', async () => {
    repo = makeRepo()
    const before = readFileSync(join(repo.root, 'mesh.json'), 'utf8')
    const written = await writerOf(repo.root).write('../mesh.json', '{"mesh_version": 1}\n', {reason: 'cluster.link'})
    expect(readFileSync(join(repo.root, 'mesh.json'), 'utf8')).toBe('{"mesh_version": 1}\n')
    expect(written.snapshot).toMatchObject({path: '../mesh.json', snapshot: 'snapshots/2026-11-24/044501.123Z/_root/mesh.json'})
    expect(repo.read(`.mesh/${written.snapshot!.snapshot}`)).toBe(before)
  })

  it('writes a secret with the mode it is given', async () => {
    repo = makeRepo()
    await writerOf(repo.root).write('credentials/invite.url', 'wss://x/ws?token=ck_a\n', {reason: 'test', mode: 0o600})
    const {statSync} = await import('node:fs')
    expect(statSync(join(repo.root, '.mesh/credentials/invite.url')).mode & 0o777).toBe(0o600)
  })

  it('keeps no snapshot of a new file or when snapshots are off', async () => {
    repo = makeRepo()
    expect((await writerOf(repo.root).write('docs/new.md', 'x', {reason: 'test'})).snapshot).toBeNull()
    expect((await writerOf(repo.root, false).write('public/README.md', 'y', {reason: 'test'})).snapshot).toBeNull()
    expect(existsSync(join(repo.root, '.mesh/snapshots'))).toBe(false)
  })

  it('refuses paths that leave .mesh/, including through a symlinked folder', async () => {
    repo = makeRepo()
    const writer = writerOf(repo.root)
    for (const path of ['../other.json', '../.gitignore', '/etc/passwd', '', 'docs/../../x', 'a\0b']) {
      expect(await caught(writer.write(path, 'x', {reason: 'test'}))).toMatchObject({code: 'invalid_path'})
    }
    const outside = join(repo.root, 'outside')
    mkdirSync(outside)
    symlinkSync(outside, join(repo.root, '.mesh/docs/link'))
    expect(await caught(writer.write('docs/link/evil.md', 'x', {reason: 'test'}))).toMatchObject({code: 'invalid_path'})
    expect(readdirSync(outside)).toEqual([])
  })

  it('never reads a linked target into a snapshot: the rename replaces the link, its target is untouched, and the refusal is told', async () => {
    repo = makeRepo()
    const outside = join(repo.root, 'outside.md')
    writeFileSync(outside, 'OUTSIDE BYTES\n')
    symlinkSync(outside, join(repo.root, '.mesh/docs/linked.md'))
    const refusals: string[] = []
    const writer = createProjectWriter({root: repo.root, clock: () => T, snapshotsEnabled: () => true, onRefused: (error) => refusals.push(error.message)})
    const written = await writer.write('docs/linked.md', 'mine\n', {reason: 'test'})
    expect(written.snapshot).toBeNull()
    expect(lstatSync(join(repo.root, '.mesh/docs/linked.md')).isFile()).toBe(true)
    expect(repo.read('.mesh/docs/linked.md')).toBe('mine\n')
    expect(readFileSync(outside, 'utf8')).toBe('OUTSIDE BYTES\n')
    expect(existsSync(join(repo.root, '.mesh/snapshots'))).toBe(false)
    expect(refusals).toEqual([expect.stringMatching(/^\.mesh\/docs\/linked\.md is a symbolic link/)])
    // A removal unlinks the link itself, keeping no snapshot of what it points at.
    symlinkSync(outside, join(repo.root, '.mesh/docs/gone.md'))
    expect((await writer.remove('docs/gone.md', {reason: 'test'})).snapshot).toBeNull()
    expect(existsSync(join(repo.root, '.mesh/docs/gone.md'))).toBe(false)
    expect(readFileSync(outside, 'utf8')).toBe('OUTSIDE BYTES\n')
  })

  it('refuses a write whose snapshot would go through a linked snapshots folder, day folder or index, creating nothing outside', async () => {
    repo = makeRepo()
    const outside = join(repo.root, 'outside')
    mkdirSync(outside)
    const writer = writerOf(repo.root)
    const before = repo.read('.mesh/public/README.md')
    const attempt = async () => {
      expect(await caught(writer.write('public/README.md', 'changed', {reason: 'test'}))).toMatchObject({code: 'path_refused'})
      expect(repo!.read('.mesh/public/README.md')).toBe(before)
      expect(readdirSync(outside)).toEqual([])
    }
    symlinkSync(outside, join(repo.root, '.mesh/snapshots'))
    await attempt()
    rmSync(join(repo.root, '.mesh/snapshots'))
    mkdirSync(join(repo.root, '.mesh/snapshots'))
    symlinkSync(outside, join(repo.root, '.mesh/snapshots/2026-11-24'))
    await attempt()
    rmSync(join(repo.root, '.mesh/snapshots/2026-11-24'))
    mkdirSync(join(repo.root, '.mesh/snapshots/2026-11-24'))
    symlinkSync(join(outside, 'index.jsonl'), join(repo.root, '.mesh/snapshots/2026-11-24/index.jsonl'))
    await attempt()
  })

  it('removes a file after keeping its bytes as a snapshot, and refuses paths outside .mesh/', async () => {
    repo = makeRepo()
    const writer = writerOf(repo.root)
    const heard: string[] = []
    writer.onWrite((written) => void heard.push(`${written.path}:${written.removed === true}`))
    const before = repo.read('.mesh/team/architect.md')
    const removed = await writer.remove('team/architect.md', {reason: 'team.delete'})
    expect(existsSync(join(repo.root, '.mesh/team/architect.md'))).toBe(false)
    expect(removed).toMatchObject({path: 'team/architect.md', removed: true, reason: 'team.delete'})
    expect(repo.read(`.mesh/${removed.snapshot!.snapshot}`)).toBe(before)
    expect(heard).toEqual(['team/architect.md:true'])
    expect((await writer.remove('team/gone.md', {reason: 'test'})).snapshot).toBeNull()
    for (const path of ['../mesh.json', '/etc/passwd', '', 'team/../../mesh.json']) {
      expect(await caught(writer.remove(path, {reason: 'test'}))).toMatchObject({code: 'invalid_path'})
    }
    expect(existsSync(join(repo.root, 'mesh.json'))).toBe(true)
  })

  it('never changes the operator block of AGENT_INSTRUCTIONS.md or the text below the RESOURCES.md marker', async () => {
    repo = makeRepo()
    const writer = writerOf(repo.root)
    const instructions = repo.read('.mesh/public/AGENT_INSTRUCTIONS.md')
    const newPreamble = instructions.replace('Rules.', 'New rules.')
    await writer.write('public/AGENT_INSTRUCTIONS.md', newPreamble, {reason: 'test'})
    expect(repo.read('.mesh/public/AGENT_INSTRUCTIONS.md')).toBe(newPreamble)
    const touched = await caught(writer.write('public/AGENT_INSTRUCTIONS.md', newPreamble.replace('Mine.', 'Theirs.'), {reason: 'test'}))
    expect(touched).toMatchObject({code: 'operator_text_protected'})
    const dropped = await caught(writer.write('public/AGENT_INSTRUCTIONS.md', 'no markers at all', {reason: 'test'}))
    expect(dropped).toMatchObject({code: 'operator_text_protected'})
    expect(repo.read('.mesh/public/AGENT_INSTRUCTIONS.md')).toBe(newPreamble)

    repo.write('.mesh/public/RESOURCES.md', `# Resources\n\n${MARKERS.resourcesEnd}\nOperator notes.\n`)
    await writer.write('public/RESOURCES.md', `# Resources v2\n${MARKERS.resourcesEnd}\nOperator notes.\n`, {reason: 'test'})
    const below = await caught(writer.write('public/RESOURCES.md', `# Resources v3\n${MARKERS.resourcesEnd}\nChanged.\n`, {reason: 'test'}))
    expect(below).toMatchObject({code: 'operator_text_protected'})
    expect(readFileSync(join(repo.root, '.mesh/public/RESOURCES.md'), 'utf8')).toContain('Resources v2')
  })
})
