import {describe, expect, it} from 'vitest'
import {describeReadError, parseFrontmatter, splitFrontmatter, stringifyFrontmatter} from '../../src/standard/frontmatter.js'

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

describe('editFrontmatter', () => {
  it('changes keys in place and keeps the body, comments and key order byte-identical', async () => {
    const {editFrontmatter} = await import('../../src/standard/frontmatter.js')
    const text = '---\nid: A1 # keep me\nstatus: backlog\nname: old\ntags: [x, y]\n---\n\n## Scope\r\n  odd   spacing\n\n'
    const next = editFrontmatter(text, (document) => {
      document.set('status', 'done')
      document.delete('name')
      document.set('updated', '2026-01-05')
    })
    expect(next).toBe('---\nid: A1 # keep me\nstatus: done\ntags: [x, y]\nupdated: 2026-01-05\n---\n\n## Scope\r\n  odd   spacing\n\n')
    expect(parseFrontmatter(next).data).toMatchObject({updated: '2026-01-05', status: 'done'})
  })
  it('keeps a BOM and CRLF fences around the YAML', async () => {
    const {editFrontmatter} = await import('../../src/standard/frontmatter.js')
    const text = '\ufeff---\r\nid: A1\r\n---\r\nbody\r\n'
    const next = editFrontmatter(text, (document) => document.set('id', 'B2'))
    expect(next.startsWith('\ufeff---\r\n')).toBe(true)
    expect(next).toBe('\ufeff---\r\nid: B2\r\n---\r\nbody\r\n')
    expect(parseFrontmatter(next).data).toEqual({id: 'B2'})
  })
  it('refuses a file without a complete frontmatter block', async () => {
    const {editFrontmatter} = await import('../../src/standard/frontmatter.js')
    expect(() => editFrontmatter('# no fences\n', () => undefined)).toThrow(/frontmatter/)
    expect(() => editFrontmatter('---\nid: A1\n', () => undefined)).toThrow(/frontmatter/)
  })

  it('describes a YAML error in one line, at the line of the file', () => {
    const error = (() => {
      try {
        parseFrontmatter('---\nid: a\nid: b\n---\n')
      } catch (caught) {
        return caught
      }
    })()
    expect(describeReadError(error, 2)).toBe('Map keys must be unique (line 3, column 1)')
    expect(describeReadError(new Error('EACCES: permission denied, open \'/x\'\nmore'))).toBe("EACCES: permission denied, open '/x'")
  })
})
