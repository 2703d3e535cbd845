import {existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {execFileSync} from 'node:child_process'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {
  appendContainedFile,
  containedEntryExists,
  createContainedFileExclusive,
  ensureContainedFolder,
  isPathRefused,
  listContainedFolder,
  readContainedFile,
  readContainedFileSync,
  readContainedText,
  writeContainedFile,
} from '../../src/lib/contained-files.js'

let base: string
let root: string
let outside: string

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mesh-contained-'))
  root = join(base, '.mesh')
  outside = join(base, 'outside')
  mkdirSync(join(root, 'team'), {recursive: true})
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret'), 'SECRET-OUTSIDE\n')
  writeFileSync(join(root, 'team', 'dev.md'), 'a card\n')
})
afterEach(() => rmSync(base, {recursive: true, force: true}))

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => null, (caught: unknown) => caught)
  expect(isPathRefused(error), String(error)).toBe(true)
  return error as Error & {details: {path: string; reason: string}}
}

describe('reading a file inside a root', () => {
  it('reads a regular file, and null when it is missing', async () => {
    expect(await readContainedText(root, 'team/dev.md')).toBe('a card\n')
    expect(await readContainedText(root, 'team/none.md')).toBeNull()
    expect(await readContainedText(root, 'nothing/here.md')).toBeNull()
    expect(readContainedFileSync(root, 'team/dev.md')?.toString()).toBe('a card\n')
    expect(readContainedFileSync(root, 'team/none.md')).toBeNull()
  })

  it('refuses a file that is a link, to outside or inside, naming it and never its target', async () => {
    symlinkSync(join(outside, 'secret'), join(root, 'team', 'out.md'))
    symlinkSync('dev.md', join(root, 'team', 'in.md'))
    for (const name of ['out.md', 'in.md']) {
      const error = await refusal(readContainedFile(root, `team/${name}`))
      expect(error.details).toEqual({path: `.mesh/team/${name}`, reason: 'a symbolic link'})
      expect(error.message).not.toContain('SECRET')
      expect(error.message).not.toContain(outside)
      expect(() => readContainedFileSync(root, `team/${name}`)).toThrow(/symbolic link/)
    }
  })

  it('refuses a file below a linked folder, also a missing one', async () => {
    symlinkSync(outside, join(root, 'linked'))
    const error = await refusal(readContainedFile(root, 'linked/secret'))
    expect(error.details.path).toBe('.mesh/linked')
    await refusal(readContainedFile(root, 'linked/none'))
    expect(() => readContainedFileSync(root, 'linked/secret')).toThrow(/\.mesh\/linked is a symbolic link/)
  })

  it('refuses a folder, a FIFO (without hanging) and a path that climbs out', async () => {
    expect((await refusal(readContainedFile(root, 'team'))).details.reason).toBe('not a regular file')
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(root, 'team', 'pipe.md')])
      expect((await refusal(readContainedFile(root, 'team/pipe.md'))).details.reason).toBe('not a regular file')
    }
    await expect(readContainedFile(root, '../outside/secret')).rejects.toMatchObject({code: 'invalid_path'})
    await expect(readContainedFile(root, join(outside, 'secret'))).rejects.toMatchObject({code: 'invalid_path'})
  })

  it('takes a root reached through a link as its real folder', async () => {
    symlinkSync(root, join(base, 'alias'))
    expect(await readContainedText(join(base, 'alias'), 'team/dev.md')).toBe('a card\n')
  })
})

describe('listing a folder inside a root', () => {
  it('lists a real folder, [] when missing, and shows a link inside as a link', async () => {
    symlinkSync(join(outside, 'secret'), join(root, 'team', 'out.md'))
    const entries = await listContainedFolder(root, 'team')
    expect(entries.map((entry) => [entry.name, entry.isFile(), entry.isSymbolicLink()]).sort()).toEqual([
      ['dev.md', true, false],
      ['out.md', false, true],
    ])
    expect(await listContainedFolder(root, 'none')).toEqual([])
  })

  it('refuses a linked folder, or one below a link', async () => {
    symlinkSync(outside, join(root, 'context'))
    expect((await refusal(listContainedFolder(root, 'context'))).details.path).toBe('.mesh/context')
    mkdirSync(join(outside, 'sub'))
    await refusal(listContainedFolder(root, 'context/sub'))
    expect(await containedEntryExists(root, 'context')).toBe(true)
    await refusal(containedEntryExists(root, 'context/secret'))
  })
})

describe('writing inside a root', () => {
  it('makes folders one by one and refuses a linked one, creating nothing outside', async () => {
    await ensureContainedFolder(root, 'snapshots/2026-01-01/x')
    expect(lstatSync(join(root, 'snapshots/2026-01-01/x')).isDirectory()).toBe(true)
    symlinkSync(outside, join(root, 'timeline'))
    await refusal(ensureContainedFolder(root, 'timeline/day'))
    await refusal(writeContainedFile(root, 'timeline/x.jsonl', 'x'))
    await refusal(appendContainedFile(root, 'timeline/x.jsonl', 'x'))
    await refusal(createContainedFileExclusive(root, 'timeline/x.jsonl', 'x'))
    expect(existsSync(join(outside, 'day'))).toBe(false)
    expect(existsSync(join(outside, 'x.jsonl'))).toBe(false)
  })

  it('appends to a regular file and refuses to append through a link', async () => {
    await appendContainedFile(root, 'log/a.jsonl', 'one\n')
    await appendContainedFile(root, 'log/a.jsonl', 'two\n')
    expect(readFileSync(join(root, 'log/a.jsonl'), 'utf8')).toBe('one\ntwo\n')
    symlinkSync(join(outside, 'secret'), join(root, 'log', 'b.jsonl'))
    await refusal(appendContainedFile(root, 'log/b.jsonl', 'appended\n'))
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('SECRET-OUTSIDE\n')
    // A dangling link is a link too: nothing is created where it points.
    symlinkSync(join(outside, 'new-file'), join(root, 'log', 'c.jsonl'))
    await refusal(appendContainedFile(root, 'log/c.jsonl', 'x'))
    expect(existsSync(join(outside, 'new-file'))).toBe(false)
  })

  it('replaces a link at the file name by an atomic write, leaving its target alone', async () => {
    symlinkSync(join(outside, 'secret'), join(root, 'team', 'out.md'))
    await writeContainedFile(root, 'team/out.md', 'mine\n')
    expect(lstatSync(join(root, 'team', 'out.md')).isFile()).toBe(true)
    expect(readFileSync(join(root, 'team', 'out.md'), 'utf8')).toBe('mine\n')
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('SECRET-OUTSIDE\n')
  })

  it('never creates a file through a link with createContainedFileExclusive', async () => {
    symlinkSync(join(outside, 'made'), join(root, 'team', 'token'))
    expect(await createContainedFileExclusive(root, 'team/token', 'x')).toBe(false)
    expect(existsSync(join(outside, 'made'))).toBe(false)
    expect(readlinkSync(join(root, 'team', 'token'))).toBe(join(outside, 'made'))
  })
})
