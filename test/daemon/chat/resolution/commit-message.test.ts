import {describe, expect, it} from 'vitest'
import {coAuthorLine, memberCommitMessage, memberSubject} from '../../../../src/daemon/chat/resolution/index.js'
import {checkCommitMessage} from '../../../../src/standard/validate/commits.js'

const codeOf = (work: () => unknown) => {
  try {
    work()
  } catch (error) {
    return (error as {code?: string}).code
  }
  return null
}

describe('commit messages of team members', () => {
  it('writes the subject, the body and the trailers Agent, Model and a co-author naming the member', () => {
    const {subject, message} = memberCommitMessage({member: 'git-manager', title: 'Git manager', model: 'opus', subject: 'feat(api): add the login route', body: 'Adds POST /login.\n', task: 'API3'})
    expect(subject).toBe('feat(api): add the login route [API3]')
    expect(message).toBe(
      'feat(api): add the login route [API3]\n\nAdds POST /login.\n\nAgent: git-manager\nModel: opus\nCo-authored-by: Git manager (mesh git-manager) <git-manager@agents.mesh.invalid>\n',
    )
    // mesh validate --commits finds nothing wrong with it.
    expect(checkCommitMessage({sha: '0'.repeat(40), message})).toEqual([])
  })

  it('leaves out an empty body and keeps a task suffix the subject already has', () => {
    const {message} = memberCommitMessage({member: 'developer', title: null, model: 'sonnet', subject: '  fix: a typo [DOC2]  ', task: 'API3'})
    expect(message).toBe('fix: a typo [DOC2]\n\nAgent: developer\nModel: sonnet\nCo-authored-by: developer (mesh developer) <developer@agents.mesh.invalid>\n')
  })

  it('adds no suffix when no task is known', () => {
    expect(memberSubject('docs(readme): say hello')).toBe('docs(readme): say hello')
    expect(memberSubject('refactor(api)!: drop v1', 'API3')).toBe('refactor(api)!: drop v1 [API3]')
  })

  it('refuses subjects that are not Conventional Commits', () => {
    for (const subject of ['add a thing', 'feature(api): add', 'feat(api):add', 'feat(): add', 'feat(a b): add', 'feat: ', 'Feat: add', 'feat: one\ntwo']) {
      expect(codeOf(() => memberSubject(subject)), subject).toBe('commit_subject_invalid')
    }
    for (const type of ['feat', 'fix', 'docs', 'style', 'refactor', 'perf', 'test', 'chore', 'build', 'ci', 'revert']) expect(memberSubject(`${type}: x`)).toBe(`${type}: x`)
  })

  it('refuses a bad task id and a model that is blank or spans lines', () => {
    expect(codeOf(() => memberSubject('feat: x', '../x'))).toBe('invalid_id')
    expect(codeOf(() => memberCommitMessage({member: 'developer', model: ' ', subject: 'feat: x'}))).toBe('commit_model_invalid')
    expect(codeOf(() => memberCommitMessage({member: 'developer', model: 'a\nAgent: evil', subject: 'feat: x'}))).toBe('commit_model_invalid')
  })

  it('keeps angle brackets and line breaks out of the co-author name', () => {
    expect(coAuthorLine('developer', 'Dev <x@y>\nEvil')).toBe('Co-authored-by: Dev x@y Evil (mesh developer) <developer@agents.mesh.invalid>')
    expect(coAuthorLine('developer', '  ')).toBe('Co-authored-by: developer (mesh developer) <developer@agents.mesh.invalid>')
  })
})
