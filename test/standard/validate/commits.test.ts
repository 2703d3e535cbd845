import {describe, expect, it} from 'vitest'
import {checkCommitMessage} from '../../../src/standard/validate/index.js'

const rules = (message: string) => checkCommitMessage({sha: '0123456789abcdef', message}).map((finding) => `${finding.rule}:${finding.severity}`)

describe('commit message checks', () => {
  it('accepts a conventional header with scope and task id', () => {
    expect(rules('feat(api): add login [API12]\n\nBody text.\n')).toEqual([])
    expect(rules('fix(web)!: drop IE [WEB3]\n')).toEqual([])
    expect(rules('Revert "feat(api): add login [API12]"\n\nThis reverts commit abc.\n')).toEqual([])
  })
  it('commit-format: a header that is not <type>(<scope>): <subject>', () => {
    expect(rules('Added the thing\n')).toEqual(['commit-format:error'])
    expect(rules('feat(): empty scope [API1]\n')).toEqual(['commit-format:error'])
  })
  it('commit-type: unknown type is an error', () => {
    expect(rules('feature(api): add [API1]\n')).toEqual(['commit-type:error'])
  })
  it('commit-scope: a missing scope is info', () => {
    expect(rules('docs: fix typo [DOC1]\n')).toEqual(['commit-scope:info'])
  })
  it('commit-task-id: missing or malformed [<task-id>] warns', () => {
    expect(rules('chore(ci): bump node\n')).toEqual(['commit-task-id:warning'])
    expect(rules('chore(ci): bump node [not an id]\n')).toEqual(['commit-task-id:warning'])
  })
  it('commit-trailers: an agent commit needs Model: and Co-authored-by:', () => {
    expect(rules('feat(api): x [API1]\n\nAgent: developer\nModel: claude-opus\nCo-authored-by: Dev <dev@example.com>\n')).toEqual([])
    expect(rules('feat(api): x [API1]\n\nAgent: developer\n')).toEqual(['commit-trailers:error', 'commit-trailers:error'])
    expect(rules('feat(api): x [API1]\n\nAgent: developer\nModel: m\n')).toEqual(['commit-trailers:error'])
    // The daemon's own commits: no model, so no co-author (docs/daemon.md, Git).
    expect(rules('chore(api): update modules/api/tasks/API1-x.md (task.transition) [API1]\n\nAgent: daemon\nModel: none\n')).toEqual([])
  })
  it('commit-mention: #<id> mentions must match the mention regex; issue numbers are not mentions', () => {
    expect(rules('feat(api): x [API1]\n\nWorks on #launch and #API1, fixes #12.\n')).toEqual([])
    const findings = checkCommitMessage({sha: 'abc', message: 'feat(api): x [API1]\n\nSee #a and #way-too-long-initiative-name-for-a-mention.\n'})
    expect(findings.map((finding) => `${finding.rule}@${finding.line}:${finding.column}`)).toEqual(['commit-mention@3:5', 'commit-mention@3:12'])
  })
  it('names the commit in the finding', () => {
    expect(checkCommitMessage({sha: '0123456789abcdef0123', message: 'nope'})[0].file).toBe('commit:0123456789ab')
  })
})
