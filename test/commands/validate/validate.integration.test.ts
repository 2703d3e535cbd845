import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {makeRepo, taskFile, type FixtureRepo} from '../../standard/fixtures.js'
import {runCli} from '../../support/cli.js'

describe('mesh validate (built CLI)', () => {
  let valid: FixtureRepo
  let invalid: FixtureRepo
  beforeAll(() => {
    valid = makeRepo()
    invalid = makeRepo({'.mesh/modules/api/tasks/API2-broken.md': taskFile({id: 'API2', status: 'wip', depends_on: ['API99']}), '.mesh/docs/INDEX.md': '# Docs\n\nA paragraph\nof two lines.\n'})
  })
  afterAll(() => {
    valid.cleanup()
    invalid.cleanup()
  })

  it('exits 0 on a valid folder with a summary line', async () => {
    const result = await runCli(['validate', valid.root])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toMatch(/^✓ no problems — 21 files checked$/)
  })

  it('defaults to the current folder', async () => {
    expect((await runCli(['validate'], {cwd: valid.root})).code).toBe(0)
  })

  it('exits 1 with findings grouped by file', async () => {
    const result = await runCli(['validate', invalid.root])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('.mesh/modules/api/tasks/API2-broken.md\n  4:9')
    expect(result.stdout).toContain('task-depends')
    expect(result.stdout).toContain('r6-index-map')
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^✖ 2 errors, 1 warning, 0 infos — 22 files checked$/)
  })

  it('is not failed by the timeline, runtime data nobody commits: a torn line, a day past 16 MB (issue 19)', async () => {
    const delta = (seq: number) => JSON.stringify({ts: '2026-11-26T10:00:00.000Z', type: 'chat.assistant.delta', author: 'developer', text: `line ${seq} ${'x'.repeat(200)}`, conv: 'c-1', turn_id: 't-1', member: 'developer', seq, src: 'daemon'})
    const busyDay = Array.from({length: 80_000}, (_, seq) => delta(seq)).join('\n') + '\n'
    const repo = makeRepo({
      '.mesh/timeline/2026-11-26.jsonl': busyDay,
      // A daemon killed in the middle of an append leaves half a line.
      '.mesh/timeline/2026-11-27.jsonl': `${delta(0)}\n{"ts":"2026-11-27T10:00:00.000Z","type":"chat.assistant.delta","author":"dev`,
    })
    try {
      expect(busyDay.length).toBeGreaterThan(16 * 1024 * 1024)
      const result = await runCli(['validate', '--verbose', repo.root])
      expect(result.code, result.stdout).toBe(0)
      expect(result.stdout).toMatch(/\.mesh\/timeline\/ +the daemon's event log \(deny-list, runtime data\): not validated/)
    } finally {
      repo.cleanup()
    }
  })

  it('--format json and --json print the report', async () => {
    for (const flags of [['--format', 'json'], ['--json']]) {
      const result = await runCli(['validate', invalid.root, ...flags])
      expect(result.code).toBe(1)
      const report = JSON.parse(result.stdout)
      expect(report).toMatchObject({ok: false, summary: {errors: 2, warnings: 1}})
      expect(report.findings[0]).toEqual(expect.objectContaining({file: expect.any(String), line: expect.any(Number), column: expect.any(Number), rule: expect.any(String), severity: expect.any(String), message: expect.any(String)}))
    }
  })

  it('--format github prints annotations relative to the working directory', async () => {
    // Run from the folder holding the repo, as a CI checkout would: paths carry the repo folder's name.
    const name = invalid.root.split('/').pop() as string
    const result = await runCli(['validate', name, '--format', 'github'], {cwd: join(invalid.root, '..')})
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(new RegExp(`^::error file=${name}/\\.mesh/modules/api/tasks/API2-broken\\.md,line=4,col=9,title=schema::`, 'm'))
    expect(result.stdout).toContain('::warning file=')
  })

  it('--format sarif prints a SARIF 2.1.0 log', async () => {
    const result = await runCli(['validate', invalid.root, '--format', 'sarif'])
    expect(result.code).toBe(1)
    const sarif = JSON.parse(result.stdout)
    expect(sarif.version).toBe('2.1.0')
    expect(sarif.runs[0].results).toHaveLength(3)
    expect(sarif.runs[0].tool.driver.rules.length).toBeGreaterThan(40)
  })

  it('--verbose lists skipped paths', async () => {
    const repo = makeRepo({'.mesh/credentials/invite.url': 'https://x.example/secret'})
    try {
      const result = await runCli(['validate', repo.root, '--verbose'])
      expect(result.code).toBe(0)
      expect(result.stdout).toContain('.mesh/credentials/  secrets (deny-list): never read')
    } finally {
      repo.cleanup()
    }
  })

  it('exits 2 on usage errors: missing folder, unknown flag, bad format', async () => {
    const missing = await runCli(['validate', '/nonexistent/mesh-repo'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('No such directory: /nonexistent/mesh-repo')
    expect(missing.stderr).not.toMatch(/\n\s+at /)
    expect((await runCli(['validate', valid.root, '--bogus'])).code).toBe(2)
    expect((await runCli(['validate', valid.root, '--format', 'xml'])).code).toBe(2)
  })

  it('never crashes on hostile files: binary, empty, not UTF-8, a FIFO, symbolic-link loops', async () => {
    const repo = makeRepo({'.mesh/docs/ops/empty.md': '', '.mesh/public/links.yaml': ''})
    try {
      writeFileSync(join(repo.root, '.mesh/modules/api/tasks/API2-blob.md'), Buffer.from([0x00, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47]))
      writeFileSync(join(repo.root, '.mesh/modules/api/tasks/API3-latin.md'), Buffer.from(taskFile({id: 'API3', title: 'Café'}), 'latin1'))
      symlinkSync('loop-b', join(repo.root, '.mesh/docs/loop-a'))
      symlinkSync('loop-a', join(repo.root, '.mesh/docs/loop-b'))
      execFileSync('mkfifo', [join(repo.root, '.mesh/docs/pipe')])
      const result = await runCli(['validate', repo.root, '--json'])
      expect(result.code).toBe(1)
      expect(result.stderr).toBe('')
      const report = JSON.parse(result.stdout)
      const brief = report.findings.map((finding: {rule: string; file: string; line: number}) => `${finding.rule}@${finding.file}:${finding.line}`)
      expect(brief).toEqual([
        'r4-frontmatter@.mesh/docs/ops/empty.md:1',
        'parse@.mesh/modules/api/tasks/API2-blob.md:1',
        'parse@.mesh/modules/api/tasks/API3-latin.md:3',
        'schema@.mesh/public/links.yaml:1',
      ])
      expect(report.skipped.map((entry: {path: string; reason: string}) => `${entry.path}: ${entry.reason}`)).toEqual([
        '.mesh/docs/loop-a: symbolic link: not followed',
        '.mesh/docs/loop-b: symbolic link: not followed',
        '.mesh/docs/pipe: not a regular file',
      ])
    } finally {
      repo.cleanup()
    }
  })

  it('neither --help nor a run loads Koa, ws, Ink, React or SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mesh-hook-'))
    try {
      const log = join(dir, 'loaded.txt')
      writeFileSync(log, '')
      writeFileSync(join(dir, 'hooks.mjs'), `import {appendFileSync} from 'node:fs'\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context)\n  appendFileSync(${JSON.stringify(log)}, result.url + '\\n')\n  return result\n}\n`)
      writeFileSync(join(dir, 'register.mjs'), `import {register} from 'node:module'\nregister(${JSON.stringify('file://' + join(dir, 'hooks.mjs'))})\n`)
      const nodeArgs = ['--import', join(dir, 'register.mjs')]
      expect((await runCli(['validate', '--help'], {nodeArgs})).code).toBe(0)
      expect((await runCli(['validate', valid.root], {nodeArgs})).code).toBe(0)
      const loaded = readFileSync(log, 'utf8')
      expect(loaded).toContain('/yaml/') // the hook did see the validator's imports
      expect(loaded).not.toMatch(/node_modules\/(koa|ws|ink|react|better-sqlite3|pg|nats)\//)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })

  describe('--commits', () => {
    let repo: string
    beforeAll(() => {
      repo = mkdtempSync(join(tmpdir(), 'mesh-git-'))
      const git = (...args: string[]) => execFileSync('git', args, {cwd: repo, encoding: 'utf8'})
      git('init', '-q', '-b', 'main')
      git('config', 'user.email', 'dev@example.com')
      git('config', 'user.name', 'Dev')
      git('commit', '-q', '--allow-empty', '-m', 'chore(repo): start [GEN1]')
      git('commit', '-q', '--allow-empty', '-m', 'feat(api): add login [API1]\n\nAgent: developer\nModel: claude-opus\nCo-authored-by: Dev <dev@example.com>')
      git('commit', '-q', '--allow-empty', '-m', 'added stuff\n\nAgent: developer')
    })
    afterAll(() => rmSync(repo, {recursive: true, force: true}))

    it('checks each commit of a range', async () => {
      const good = await runCli(['validate', repo, '--commits', 'HEAD~2..HEAD~1', '--json'])
      expect(good.code).toBe(0)
      expect(JSON.parse(good.stdout)).toMatchObject({ok: true, summary: {files: 1, errors: 0}})
      const all = await runCli(['validate', repo, '--commits', 'HEAD~2..HEAD', '--json'])
      expect(all.code).toBe(1)
      const rules = JSON.parse(all.stdout).findings.map((finding: {rule: string}) => finding.rule)
      expect(rules).toEqual(['commit-format', 'commit-trailers', 'commit-trailers'])
    })

    it('exits 2 on a bad range', async () => {
      const result = await runCli(['validate', repo, '--commits', 'nope..HEAD'])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain('cannot read commits nope..HEAD')
      const empty = await runCli(['validate', repo, '--commits', ''])
      expect(empty.code).toBe(2)
      expect(empty.stderr).toContain('--commits needs a revision range')
      expect((await runCli(['validate', repo, '--commits', '--all'])).code).toBe(2)
    })
  })
})
