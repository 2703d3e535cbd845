import {describe, expect, it} from 'vitest'
import {postBlock} from '../../../src/client/cluster/boards-format.js'
import {table, terminalSafe} from '../../../src/client/cluster/text.js'

describe('terminalSafe', () => {
  it('defuses escape sequences, C1 controls and bidi overrides, and keeps the text readable', () => {
    expect(terminalSafe('plain text, é ✓ 😀')).toBe('plain text, é ✓ 😀')
    expect(terminalSafe('a\u001b[2Jb')).toBe('a\ufffd[2Jb')
    expect(terminalSafe('title\u001b]0;pwned\u0007')).toBe('title\ufffd]0;pwned\ufffd')
    expect(terminalSafe('c1\u009b31m del\u007f')).toBe('c1\ufffd31m del\ufffd')
    expect(terminalSafe('abc\u202edcba \u2066x\u2069')).toBe('abc\ufffddcba \ufffdx\ufffd')
    expect(terminalSafe('one\ntwo\r\nthree\rfour\tfive')).toBe('one ↵ two ↵ three ↵ four  five')
  })
  it('is applied to every table cell and every line of a post', () => {
    // Widths are measured on the safe text.
    expect(table([['A', 'B'], ['x\u001b[1m', 'y']])).toEqual(['A      B', 'x\ufffd[1m  y'])
    const lines = postBlock({
      post_id: 'p_1', board_id: 'b_1', board: 'news', cluster_id: 'c_1', author: 'eve\u001b[31m', title: 'T\u0007', body: 'line 1\r\nline\u001b[2K 2',
      ttl: '7d', props: {}, effective_props: {}, created_at: '2026-01-01T00:00:00.000Z', expires_at: null,
    })
    expect(lines.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    expect(lines.at(-1)).toBe('  line\ufffd[2K 2')
  })
})
