import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {parseSimpleYaml} from '../../../src/standard/project/index.js'

/** What the full parser (YAML 1.2 core, as frontmatter.ts uses it) returns. */
const full = (text: string) => parse(text, {uniqueKeys: true}) ?? {}

describe('parseSimpleYaml (fast path)', () => {
  const same = [
    'id: A1\ntitle: Hello world\n',
    'created: 2026-01-05\nupdated: 2026-01-06T10:00:00Z\n',
    'order: 3\nneg: -4\nplus: +5\nzero: 007\n',
    'a: true\nb: False\nc: NULL\nd: ~\ne:\n',
    'yes: yes\nno: no\non: on\n',
    'tags: [a, b, c]\nempty: []\nspaced: [ x , y ]\n',
    'depends_on:\n  - A1\n  - B2\nnext: 1\n',
    'list:\n- a\n- b\n',
    'quoted: "a: b # c"\nsingle: \'it is\'\n',
    "title: Don't panic\nlang: C#\nurl: https://x.example/a?b=c\n",
    '# comment\nid: A1 \n\n# another\n',
    'id: A1\r\ntitle: crlf\r\n',
    'weird-key_1: v\n',
    'items:\n  -\n  - x\n',
    'n: -x\n',
    '',
  ]
  it.each(same)('returns what yaml returns for %j', (text) => {
    expect(parseSimpleYaml(text)).toEqual(full(text))
  })

  const fallback = [
    'a: 1.5\n', // floats
    'a: 0x1F\n',
    'a: .inf\n',
    'a: |\n  block\n',
    'a: >\n  folded\n',
    'a: &x 1\nb: *x\n',
    'a: !!str 1\n',
    'a: {b: 1}\n',
    'a:\n  b: 1\n',
    'a: one\n  continued\n',
    'a: "esc\\"aped"\n',
    "a: 'it''s'\n",
    'a: x # comment\n',
    'a: b: c\n',
    'a: [x, [y]]\n',
    'a: [k: v]\n',
    'a: 1\na: 2\n',
    '"quoted key": 1\n',
    '- top level list\n',
    'a:\n  - x\n   - y\n',
    'a:\n  - k: v\n',
    'a:\tb\n',
    'a: 99999999999999999999\n',
  ]
  it.each(fallback)('leaves %j to the full parser', (text) => {
    expect(parseSimpleYaml(text)).toBeUndefined()
  })

  it('never disagrees with yaml on generated frontmatter', () => {
    const values = ['A1', '2026-01-05', '12', '-3', 'true', 'null', 'a b c', 'x:y', 'https://a.b/c', "it's", 'C#', '[a, b]', '"q"', 'é ü', '']
    for (const first of values) {
      for (const second of values) {
        const text = `k: ${first}\nl:\n  - ${second}\nm: ${second}\n`
        const fast = parseSimpleYaml(text)
        if (fast === undefined) continue
        let expected: unknown
        try {
          expected = full(text)
        } catch {
          throw new Error(`fast path accepted YAML the full parser rejects: ${JSON.stringify(text)}`)
        }
        expect(fast, JSON.stringify(text)).toEqual(expected)
      }
    }
  })
})
