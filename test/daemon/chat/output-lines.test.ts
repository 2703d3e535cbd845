import {describe, expect, it} from 'vitest'
import {MAX_LINE_CHARS} from '../../../src/daemon/chat/constants.js'
import {cleanLine, splitLines} from '../../../src/daemon/chat/output-lines.js'

describe('a client’s output as lines', () => {
  it('removes terminal escapes and control characters, keeps tabs and text', () => {
    expect(cleanLine('\u001b[31mred\u001b[0m\tbell\u0007 back\u0008\r')).toBe('red\tbell back')
    expect(cleanLine('\u001b]0;title\u0007after')).toBe('after')
  })

  it('removes the C1 controls and the bidirectional controls that reorder what a reader sees (issue 19)', () => {
    // "Trojan Source": RLO/LRI/PDI make `access = "user"` read as something else on screen.
    const trojan = 'if (access !== "user\u202e \u2066// admin\u2069 \u2066") {'
    expect(cleanLine(trojan)).toBe('if (access !== "user // admin ") {')
    for (const control of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u0080', '\u0085', '\u009b', '\u009f']) expect(cleanLine(`a${control}b`)).toBe('ab')
    // Neighbours are text: the zero-width joiner of an emoji, accented letters.
    expect(cleanLine('é 👩\u200d💻 \u00a0x')).toBe('é 👩\u200d💻 \u00a0x')
  })

  it('hands a structured stream its raw lines, long ones included, and drops a line past the bound with a word', () => {
    const lines: string[] = []
    const dropped: number[] = []
    const splitter = splitLines((line) => lines.push(line), {clean: false, maxChars: 100, onOverlong: (chars) => dropped.push(chars)})
    splitter.push(Buffer.from('{"a":"\u001b"}\n' + 'y'.repeat(150)))
    splitter.push(Buffer.from('y'.repeat(10) + '\n{"b":1}\n'))
    splitter.end()
    expect(lines).toEqual(['{"a":"\u001b"}', '{"b":1}'])
    expect(dropped).toEqual([160])
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
