import {describe, expect, it} from 'vitest'
import {parseFrontmatter, splitFrontmatter, stringifyFrontmatter} from '../../src/standard/frontmatter.js'

describe('frontmatter', () => {
  it('splits fences and keeps the body byte-identical', () => {
    const text = '---\nid: A1\n---\n\n## Scope\r\nkeep  this\n'
    const split = splitFrontmatter(text)
    expect(split.yamlText).toBe('id: A1\n')
    expect(split.body).toBe('\n## Scope\r\nkeep  this\n')
  })
  it('keeps dates as strings (YAML 1.2)', () => {
    expect(parseFrontmatter('---\ncreated: 2026-01-05\n---\n').data).toEqual({created: '2026-01-05'})
  })
  it('reports a missing closing fence', () => {
    expect(splitFrontmatter('---\nid: A1\nno end').unterminated).toBe(true)
  })
  it('reads a file without frontmatter as all body', () => {
    expect(splitFrontmatter('# Title\n')).toMatchObject({hasFrontmatter: false, body: '# Title\n'})
  })
  it('throws on broken YAML and on duplicate keys', () => {
    expect(() => parseFrontmatter('---\nid: [unclosed\n---\n')).toThrow()
    expect(() => parseFrontmatter('---\nid: a\nid: b\n---\n')).toThrow()
  })
  it('round-trips data and body', () => {
    const out = stringifyFrontmatter({id: 'A1', tags: ['x']}, 'body\n')
    const back = parseFrontmatter(out)
    expect(back.data).toEqual({id: 'A1', tags: ['x']})
    expect(back.body).toBe('body\n')
  })
})
