import {describe, expect, it} from 'vitest'
import {commitMessage, isDenied, scopeOf, taskIdOf} from '../../../src/daemon/git/index.js'
import {checkCommitMessage} from '../../../src/standard/validate/commits.js'

describe('daemon commit messages', () => {
  it('names the task of a task file, active or archived, and nothing else', () => {
    expect(taskIdOf('modules/api/tasks/API12-login.md')).toBe('API12')
    expect(taskIdOf('modules/api/log/2026-01/API3-old.md')).toBe('API3')
    expect(taskIdOf('modules/api/tasks/API12.md')).toBe('API12')
    expect(taskIdOf('modules/api/README.md')).toBeNull()
    expect(taskIdOf('team/developer.md')).toBeNull()
    expect(taskIdOf('modules/api/tasks/notes.md')).toBeNull()
  })

  it('scopes a file by its module or area', () => {
    expect(scopeOf('modules/api/tasks/API12-login.md')).toBe('api')
    expect(scopeOf('public/links.yaml')).toBe('links')
    expect(scopeOf('public/cluster.yaml')).toBe('cluster')
    expect(scopeOf('public/RESOURCES.md')).toBe('public')
    expect(scopeOf('team/developer.md')).toBe('team')
    expect(scopeOf('STANDARD_VERSION')).toBe('mesh')
  })

  it('writes <type>(<scope>): <subject> [<task-id>] with the daemon trailers and no co-author', () => {
    const {subject, message} = commitMessage([{path: 'modules/api/tasks/API12-login.md', reason: 'task.transition'}])
    expect(subject).toBe('chore(api): update modules/api/tasks/API12-login.md (task.transition) [API12]')
    expect(message).toBe(`${subject}\n\nWritten by the mesh daemon:\n- .mesh/modules/api/tasks/API12-login.md (task.transition)\n\nAgent: daemon\nModel: none\n`)
    expect(message).not.toMatch(/Co-authored-by/i)
    expect(checkCommitMessage({sha: '0'.repeat(40), message}).filter((finding) => finding.severity !== 'info')).toEqual([])
  })

  it('batches files: one scope when they share it, the task id only when every file names the same task', () => {
    expect(commitMessage([{path: 'modules/api/README.md', reason: 'a'}, {path: 'modules/api/tasks/API1-x.md', reason: 'b'}]).subject).toBe('chore(api): update 2 files (a, b)')
    expect(commitMessage([{path: 'public/links.yaml', reason: 'links.patch'}, {path: 'team/dev.md', reason: 'links.patch'}]).subject).toBe('chore(mesh): update 2 files (links.patch)')
  })

  it('knows the deny-list, folders and single files', () => {
    expect(isDenied('.mesh/.runtime/daemon.json')).toBe(true)
    expect(isDenied('.mesh/snapshots/2026-01-01/index.jsonl')).toBe(true)
    expect(isDenied('.mesh/roadmap/state.json')).toBe(true)
    expect(isDenied('.mesh/workflows/log/2026-01/W1-x.md')).toBe(true)
    expect(isDenied('.mesh/workflows/W1-release.md')).toBe(false)
    expect(isDenied('.mesh/roadmap/initiatives/launch.md')).toBe(false)
  })
})
