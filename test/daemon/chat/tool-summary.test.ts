import {describe, expect, it} from 'vitest'
import {clipOutput, maskSecrets, summarizeInput, toolLine} from '../../../src/daemon/chat/tool-summary.js'

describe('a tool step in one line', () => {
  it('masks secret-looking values: known token shapes, values after secret names, bearer tokens, URL passwords', () => {
    const cases: Array<[string, string]> = [
      ['use mtk_AbCdEfGhIjKlMnOp now', 'use *** now'],
      ['OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz', 'OPENAI_API_KEY=***'],
      ['gh auth --token ghp_0123456789abcdefghijABCDEFGHIJ', 'gh auth --token ***'],
      ['password: "swordfish"', 'password: "***"'],
      ['curl -H "Authorization: Bearer abc.def.ghi-jkl"', 'curl -H "Authorization: Bearer ***"'],
      ['git clone https://me:s3cret@example.com/r.git', 'git clone https://me:***@example.com/r.git'],
      ['aws AKIAIOSFODNN7EXAMPLE', 'aws ***'],
      ['npm test -- --grep login', 'npm test -- --grep login'],
    ]
    for (const [text, masked] of cases) expect(maskSecrets(text)).toBe(masked)
  })

  it('says what a tool works on: a path (relative inside the project), a command, a query, changes; else the input as JSON', () => {
    expect(summarizeInput({file_path: '/work/project/src/a.ts', old_string: 'x'}, '/work/project')).toBe('src/a.ts')
    expect(summarizeInput({file_path: '/etc/passwd'}, '/work/project')).toBe('/etc/passwd')
    expect(summarizeInput({command: 'npm test\n  && echo done'}, '/r')).toBe('npm test && echo done')
    expect(summarizeInput({changes: [{path: '/r/a.ts', kind: 'update'}, {path: 'b.ts', kind: 'add'}]}, '/r')).toBe('update a.ts, add b.ts')
    expect(summarizeInput({token: 'abc', n: 1}, '/r')).toBe('{"token":"***","n":1}')
    expect(summarizeInput({query: 'q'.repeat(500)}, '/r')).toHaveLength(200)
    expect(toolLine('Edit', 'src/a.ts')).toBe('Edit src/a.ts')
    expect(toolLine('Read', '')).toBe('Read')
  })

  it('clips an output, with its length', () => {
    expect(clipOutput('short\u202e ok')).toBe('short ok')
    expect(clipOutput('y'.repeat(10_000))).toBe(`${'y'.repeat(2_000)}… (10000 characters in all)`)
  })
})
