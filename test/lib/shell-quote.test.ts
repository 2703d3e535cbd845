import {describe, expect, it} from 'vitest'
import {shellCommand, shellWord} from '../../src/lib/shell-quote.js'

describe('shell quoting', () => {
  it('quotes shell words only when needed', () => {
    expect(shellCommand(['mesh', 'call', 'a', '--data', '{"t":"it\'s"}', '@f.json'])).toBe(`mesh call a --data '{"t":"it'\\''s"}' @f.json`)
  })
  it('leaves words of safe characters as they are and quotes an empty word', () => {
    expect(shellWord('https://a.example/v1/x-y_z@1,2:3%4+5=6')).toBe('https://a.example/v1/x-y_z@1,2:3%4+5=6')
    expect(shellWord('')).toBe("''")
  })
})
