/** Under --json, oclif's own errors (flag and argument parsing) come out in mesh's error shape, with exit 2. */
import {describe, expect, it} from 'vitest'
import {runCli} from '../support/cli.js'

describe('--json errors from flag parsing', () => {
  it('are one {"error": {code, message}} object on stdout, exit 2, no oclif internals', async () => {
    for (const args of [
      ['search', '--json', '--limit', 'abc', 'x'],
      ['search', '--json'],
      ['task', 'list', '--json', '--bogus'],
    ]) {
      const result = await runCli(args)
      const answer = JSON.parse(result.stdout) as {error: Record<string, unknown>}
      expect([args.join(' '), result.code, Object.keys(answer), Object.keys(answer.error).sort()]).toEqual([args.join(' '), 2, ['error'], ['code', 'message']])
      expect(answer.error.code).toBe('usage_error')
      expect(answer.error.message).not.toMatch(/\n|oclif|See more help/)
    }
    const parsed = JSON.parse((await runCli(['search', '--json', '--limit', 'abc', 'x'])).stdout) as {error: {message: string}}
    expect(parsed.error.message).toBe('Parsing --limit Expected an integer but received: abc')
  })
})
