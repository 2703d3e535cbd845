import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {classifyFile, loadProject} from '../../../src/standard/project/index.js'
import {isMeshError} from '../../../src/lib/errors.js'
import {makeRepo, type FixtureRepo} from '../fixtures.js'

describe('classifyFile', () => {
  it.each([
    ['mesh.json', 'bootstrap'],
    ['.gitignore', 'gitignore'],
    ['.mesh/STANDARD_VERSION', 'standard-version'],
    ['.mesh/public/cluster.yaml', 'cluster'],
    ['.mesh/public/links.yaml', 'links'],
    ['.mesh/public/AGENT_INSTRUCTIONS.md', 'instructions'],
    ['.mesh/public/RESOURCES.md', 'resources'],
    ['.mesh/docs/ops/runbook.md', 'doc'],
    ['.mesh/docs/INDEX.md', 'doc-index'],
    ['.mesh/docs/governance.md', 'doc-exempt'],
    ['.mesh/modules/api/README.md', 'module-readme'],
    ['.mesh/modules/api/tasks/API1-x.md', 'task'],
    ['.mesh/modules/api/log/2025-12/API0-x.md', 'archived-task'],
    ['.mesh/modules/api/diagrams/flow.svg', 'diagram'],
    ['.mesh/roadmap/initiatives/launch.md', 'initiative'],
    ['.mesh/context/overview.md', 'context'],
    ['.mesh/context/decisions/2026-01-05-use-yaml.md', 'decision'],
    ['.mesh/context/criteria/speed.md', 'criterion'],
    ['.mesh/team/dev.md', 'team'],
    ['.mesh/workflows/W1-release.md', 'workflow'],
    ['.mesh/protocols/P1-handoff.md', 'protocol'],
    ['.mesh/workflows/log/2026-01/W1-2026-01-05-v1.md', 'run-log'],
    ['.mesh/protocols/log/2026-01/P1-2026-01-05-x.md', 'run-log'],
    ['.mesh/timeline/2026-01-05.jsonl', 'timeline'],
    ['.mesh/queues/conv1.json', 'queue'],
    ['.mesh/.runtime/debug.jsonl', 'debug-stream'],
    ['.mesh/modules/api/tasks/.gitkeep', 'placeholder'],
    ['.mesh/README.md', 'readme'],
    ['.mesh/notes.txt', 'unknown'],
  ])('%s → %s', (path, kind) => {
    expect(classifyFile(path).kind).toBe(kind)
  })

  it('marks deny-listed paths and notes misplaced tasks', () => {
    expect(classifyFile('.mesh/timeline/2026-01-05.jsonl').denied).toBe(true)
    expect(classifyFile('.mesh/workflows/log/2026-01/W1-2026-01-05-v1.md').denied).toBe(true)
    expect(classifyFile('.mesh/modules/api/tasks/API1-x.md').denied).toBe(false)
    expect(classifyFile('.mesh/modules/api/log/old/API1-x.md').note?.rule).toBe('task-location')
    expect(classifyFile('.mesh/modules/api/tasks/done/API1-x.md').note?.rule).toBe('task-location')
    expect(classifyFile('.mesh/modules/api/tasks/notes.txt').note).toMatchObject({rule: 'unknown-file', severity: 'warning'})
    expect(classifyFile('.mesh/docs/image.png').note).toMatchObject({rule: 'unknown-file', severity: 'info'})
  })
})

describe('loadProject', () => {
  let repo: FixtureRepo
  afterEach(() => repo?.cleanup())

  it('reads every file and lists what it skips, with reasons', async () => {
    repo = makeRepo({
      '.mesh/credentials/invite.url': 'https://secret.example/i/abc',
      '.mesh/.runtime/daemon.pid': '123',
      '.mesh/.runtime/task-ids/API9': '',
      '.mesh/roadmap/state.json': '{}',
      '.mesh/team/.archive/old.md': 'x',
      '.mesh/log/2026-01-05.md': 'session',
      '.mesh/.runtime/debug.jsonl': '',
    })
    symlinkSync(join(repo.root, 'mesh.json'), join(repo.root, '.mesh/link.json'))
    const project = await loadProject(repo.root)
    const skipped = Object.fromEntries(project.skipped.map((entry) => [entry.path, entry.reason]))
    expect(skipped['.mesh/credentials/']).toMatch(/never read/)
    expect(skipped['.mesh/.runtime/daemon.pid']).toMatch(/ephemera/)
    expect(skipped['.mesh/.runtime/task-ids/']).toMatch(/ephemera/)
    expect(skipped['.mesh/roadmap/state.json']).toMatch(/generated/)
    expect(skipped['.mesh/team/.archive/']).toMatch(/archived/)
    expect(skipped['.mesh/log/']).toMatch(/session log/)
    expect(skipped['.mesh/link.json']).toMatch(/symbolic link/)
    const paths = project.files.map((file) => file.path)
    expect(paths).toContain('.mesh/.runtime/debug.jsonl')
    expect(paths).not.toContain('.mesh/credentials/invite.url')
    // Every file on disk is either loaded or skipped.
    expect(project.files.length).toBe(22)
  })

  it('parses frontmatter, keeps dates as strings and records the body line', async () => {
    repo = makeRepo()
    const project = await loadProject(repo.root)
    const task = project.files.find((file) => file.kind === 'task')!
    expect(task.data).toMatchObject({id: 'API1', created: '2026-01-05'})
    expect(task.bodyStartLine).toBe(11) // 8 keys on lines 2–9, the closing fence on 10
    expect(task.body?.startsWith('\n## Scope')).toBe(true)
  })

  it('yields between read batches and keeps the order', async () => {
    repo = makeRepo()
    const small = await loadProject(repo.root, {batchSize: 2})
    const large = await loadProject(repo.root)
    expect(small.files.map((file) => file.path)).toEqual(large.files.map((file) => file.path))
  })

  it('a missing folder is a usage error', async () => {
    const error = await loadProject('/nonexistent/mesh-folder').catch((caught: unknown) => caught)
    expect(isMeshError(error) && error.code).toBe('usage_dir_missing')
  })

  it('a folder without .mesh/ loads with hasMeshDir false', async () => {
    repo = makeRepo({}, {})
    mkdirSync(join(repo.root, 'src'))
    const project = await loadProject(repo.root)
    expect(project).toMatchObject({hasMeshDir: false, files: []})
  })
})
