import {describe, expect, it} from 'vitest'
import {MAX_LINE_CHARS} from '../../../src/daemon/chat/constants.js'
import {cleanLine, splitLines} from '../../../src/daemon/chat/output-lines.js'

describe('a client’s output as lines', () => {
  it('removes terminal escapes and control characters, keeps tabs and text', () => {
    expect(cleanLine('\u001b[31mred\u001b[0m\tbell\u0007 back\u0008\r')).toBe('red\tbell back')
    expect(cleanLine('\u001b]0;title\u0007after')).toBe('after')
  })

  it('decodes UTF-8 across chunk boundaries and turns invalid bytes into U+FFFD', () => {
    const lines: string[] = []
    const splitter = splitLines((line) => lines.push(line))
    const euro = Buffer.from('€ ok\n')
    splitter.push(euro.subarray(0, 1))
    splitter.push(Buffer.concat([euro.subarray(1), Buffer.from([0xff, 0x0a]), Buffer.from('tail')]))
    splitter.end()
    expect(lines).toEqual(['€ ok', '\uFFFD', 'tail'])
  })

  it('cuts a line that never ends instead of holding it whole', () => {
    const lines: string[] = []
    const splitter = splitLines((line) => lines.push(line))
    splitter.push(Buffer.from('x'.repeat(MAX_LINE_CHARS * 3)))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toHaveLength(MAX_LINE_CHARS + 1)
    expect(lines[0].endsWith('…')).toBe(true)
  })
})
