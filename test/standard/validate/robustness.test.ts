import {mkdirSync, symlinkSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {loadProject, MAX_STANDARD_FILE_BYTES} from '../../../src/standard/project/index.js'
import {firstInvalidUtf8} from '../../../src/standard/project/utf8.js'
import {validateLoaded, validateProject} from '../../../src/standard/validate/index.js'
import {makeRepo, taskFile, type FixtureRepo} from '../fixtures.js'
import {brief} from './helpers.js'

/** Inputs that must give findings (or nothing), never a crash or a silent skip. */
describe('validate on hostile input', () => {
  let repo: FixtureRepo
  afterEach(() => repo?.cleanup())

  it('a file that is not UTF-8 is a parse error at the first bad byte', async () => {
    repo = makeRepo()
    // Saved as Latin-1: é is the single byte 0xE9.
    writeFileSync(join(repo.root, '.mesh/modules/api/tasks/API2-cafe.md'), Buffer.from(taskFile({id: 'API2', title: 'Café'}), 'latin1'))
    const {findings} = await validateProject(repo.root)
    const parse = findings.filter((finding) => finding.file.endsWith('API2-cafe.md'))
    expect(parse).toEqual([expect.objectContaining({rule: 'parse', severity: 'error', line: 3, column: 11, message: 'not valid UTF-8 (byte 0xE9); save the file as UTF-8'})])
  })

  it('a YAML error message does not repeat its position (the finding has it)', async () => {
    repo = makeRepo({'.mesh/public/links.yaml': 'x: [1, 2\n'})
    const [finding] = (await validateProject(repo.root)).findings
    expect(finding).toMatchObject({rule: 'parse', line: 2, column: 1})
    expect(finding.message).not.toMatch(/at line \d+, column \d+/)
    expect(finding.message).toMatch(/^Flow sequence in block collection/)
  })

  it('YAML nested 100,000 levels deep is a finding, not a crash', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    repo = makeRepo({'.mesh/public/links.yaml': `version: 1\nmodules: ${deep}\n`, '.mesh/modules/api/tasks/API2-deep.md': `---\nid: API2\nx: ${deep}\n---\n`})
    const findings = (await validateProject(repo.root)).findings
    expect(findings.map((finding) => `${finding.rule}@${finding.file}:${finding.line}: ${finding.message}`)).toEqual([
      'parse@.mesh/modules/api/tasks/API2-deep.md:3: nested too deeply to be read',
      'parse@.mesh/public/links.yaml:2: nested too deeply to be read',
    ])
  })

  it('a real U+FFFD character is fine', async () => {
    repo = makeRepo({'.mesh/modules/api/tasks/API2-odd.md': taskFile({id: 'API2', title: 'Replacement \uFFFD char'})})
    expect(brief((await validateProject(repo.root)).findings)).toEqual([])
  })

  it('empty files get the finding of their kind', async () => {
    repo = makeRepo({'mesh.json': '', '.mesh/public/links.yaml': '', '.mesh/modules/api/tasks/API2-empty.md': '', '.mesh/queues/c1.json': ''})
    expect(brief((await validateProject(repo.root)).findings)).toEqual([
      'frontmatter-required@.mesh/modules/api/tasks/API2-empty.md:1',
      'schema@.mesh/public/links.yaml:1',
      'parse@.mesh/queues/c1.json:1',
      'parse@mesh.json:1',
    ])
  })

  it('binary content in a standard file is a finding; a binary diagram is not read', async () => {
    repo = makeRepo()
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x00])
    writeFileSync(join(repo.root, '.mesh/modules/api/tasks/API2-blob.md'), binary)
    mkdirSync(join(repo.root, '.mesh/modules/api/diagrams'))
    writeFileSync(join(repo.root, '.mesh/modules/api/diagrams/flow.png'), binary)
    expect(brief((await validateProject(repo.root)).findings)).toEqual(['parse@.mesh/modules/api/tasks/API2-blob.md:1'])
  })

  it('a file of the standard over the size limit is a finding and is not read', async () => {
    repo = makeRepo({'.mesh/public/links.yaml': ''})
    truncateSync(join(repo.root, '.mesh/public/links.yaml'), MAX_STANDARD_FILE_BYTES + 1)
    const {findings} = await validateProject(repo.root)
    expect(findings).toEqual([expect.objectContaining({file: '.mesh/public/links.yaml', rule: 'parse', severity: 'error', message: expect.stringMatching(/larger than the 16 MB/)})])
  })

  it('never reads the timeline: a day past 16 MB or a line torn by a killed daemon fails nothing (issue 19)', async () => {
    repo = makeRepo({'.mesh/timeline/2026-01-05.jsonl': '{"ts":"2026-01-05T10:00:00Z","type":"chat.assistant.delta","author":"a","text":', '.mesh/timeline/2026-01-06.jsonl': ''})
    truncateSync(join(repo.root, '.mesh/timeline/2026-01-06.jsonl'), MAX_STANDARD_FILE_BYTES + 1)
    const report = await validateProject(repo.root)
    expect(report.ok).toBe(true)
    expect(report.findings.filter((finding) => finding.file.startsWith('.mesh/timeline/'))).toEqual([])
    expect(report.skipped).toEqual(expect.arrayContaining([{path: '.mesh/timeline/', reason: expect.stringMatching(/runtime data/)}]))
  })

  it('symbolic-link loops are listed as skipped, never followed', async () => {
    repo = makeRepo()
    symlinkSync('loop-b', join(repo.root, '.mesh/docs/loop-a'))
    symlinkSync('loop-a', join(repo.root, '.mesh/docs/loop-b'))
    symlinkSync('.', join(repo.root, '.mesh/docs/self'))
    const report = await validateProject(repo.root)
    expect(report.findings).toEqual([])
    expect(report.skipped.map((entry) => entry.path)).toEqual(['.mesh/docs/loop-a', '.mesh/docs/loop-b', '.mesh/docs/self'])
  })

  it('an unreadable folder is an error finding; an unreadable .gitignore is one parse finding, not fourteen deny-list ones', async () => {
    // Permissions cannot be taken away from root (tests may run as root), so the loaded project is edited instead.
    repo = makeRepo()
    const project = await loadProject(repo.root)
    project.skipped.push({path: '.mesh/docs/locked/', reason: 'cannot be read: EACCES', unreadable: true})
    const gitignore = project.files.find((file) => file.kind === 'gitignore')!
    gitignore.text = undefined
    gitignore.parseError = {line: 1, column: 1, message: 'cannot be read: EACCES'}
    const report = validateLoaded(project)
    expect(report.findings.map((finding) => `${finding.rule}@${finding.file}: ${finding.message}`)).toEqual([
      'parse@.gitignore: cannot be read: EACCES',
      'parse@.mesh/docs/locked/: folder cannot be read: EACCES; the files in it were not checked',
    ])
    expect(report.ok).toBe(false)
  })
})

describe('firstInvalidUtf8', () => {
  it.each([
    ['ascii', [0x61, 0x62], -1],
    ['two-byte é', [0xc3, 0xa9], -1],
    ['four-byte emoji', [0xf0, 0x9f, 0x98, 0x80], -1],
    ['lone continuation', [0x61, 0x80], 1],
    ['overlong /', [0xc0, 0xaf], 0],
    ['overlong three-byte', [0xe0, 0x80, 0x80], 0],
    ['surrogate', [0xed, 0xa0, 0x80], 0],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['truncated', [0x61, 0xe2, 0x82], 1],
    ['Latin-1 é before a newline', [0x43, 0xe9, 0x0a], 1],
  ])('%s', (_name, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset)
  })
})
