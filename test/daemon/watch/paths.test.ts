import {describe, expect, it} from 'vitest'
import {classifyPath} from '../../../src/daemon/watch/classify.js'
import {isIgnoredPath} from '../../../src/daemon/watch/ignore.js'

describe('isIgnoredPath', () => {
  it('ignores daemon ephemera, kept copies, secrets and bulky local folders, at any depth below them', () => {
    for (const path of ['.runtime', '.runtime/debug.jsonl', 'snapshots/2026-01-05/index.jsonl', 'credentials/portal-token', 'uploads/a.png', 'architect/index.html', 'scripts/node_modules/x/index.js', 'docs/.git/HEAD']) {
      expect(isIgnoredPath(path), path).toBe(true)
    }
  })

  it("ignores the writers' and editors' scratch files", () => {
    const scratch = [
      'public/.links.yaml.1234.a1b2c3d4e5f6.tmp', // src/lib/atomic-write.ts
      'modules/api/tasks/.API2-x.md.1234.a1b2c3d4e5f6.new', // src/lib/exclusive-create.ts
      'workflows/.W1-release.md.swp',
      'workflows/.W1-release.md.swo',
      'workflows/W1-release.md~',
      'workflows/.#W1-release.md',
      'workflows/4913',
      'workflows/W1-release.md___jb_tmp___',
      'docs/.DS_Store',
    ]
    for (const path of scratch) expect(isIgnoredPath(path), path).toBe(true)
  })

  it('watches the files of the standard', () => {
    for (const path of ['', 'public/links.yaml', 'public/cluster.yaml', 'workflows/W1-release.md', 'modules/api/tasks/API1-first-task.md', 'timeline/2026-01-05.jsonl', 'team/architect.md', 'docs/tmp.md', 'context/swp.md']) {
      expect(isIgnoredPath(path), path).toBe(false)
    }
  })
})

describe('classifyPath', () => {
  it('knows runbooks, their run logs, links, cluster.yaml, tasks and timeline files', () => {
    expect(classifyPath('workflows/W12-release.md')).toEqual({kind: 'workflow', id: 'W12'})
    expect(classifyPath('workflows/log/2026-01/W12-2026-01-05-prod.md')).toEqual({kind: 'workflow-run', id: 'W12'})
    expect(classifyPath('protocols/P3-incident.md')).toEqual({kind: 'protocol', id: 'P3'})
    expect(classifyPath('protocols/log/2026-01/P3-2026-01-05-x.md')).toEqual({kind: 'protocol-run', id: 'P3'})
    expect(classifyPath('public/links.yaml')).toEqual({kind: 'links'})
    expect(classifyPath('public/cluster.yaml')).toEqual({kind: 'cluster'})
    expect(classifyPath('modules/api/tasks/API2-login.md')).toEqual({kind: 'task', module: 'api', nameId: 'API2'})
    expect(classifyPath('timeline/2026-01-05.jsonl')).toEqual({kind: 'timeline'})
  })

  it('reports everything else as a plain file', () => {
    for (const path of ['workflows/P1-wrong-folder.md', 'workflows/README.md', 'workflows/log/2026-13/W1-x.md', 'protocols/W1-x.md', 'modules/api/log/2026-01/API0-old.md', 'modules/api/README.md', 'timeline/notes.txt', 'team/architect.md', 'public/README.md']) {
      expect(classifyPath(path), path).toEqual({kind: 'other'})
    }
  })
})
