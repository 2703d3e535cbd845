import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {RULES} from '../../../src/standard/validate/index.js'

const SRC = join(__dirname, '..', '..', '..', 'src', 'standard', 'validate')
const TESTS = __dirname
const read = (dir: string): string =>
  readdirSync(dir, {withFileTypes: true})
    .map((entry) => (entry.isDirectory() ? read(join(dir, entry.name)) : readFileSync(join(dir, entry.name), 'utf8')))
    .join('\n')

describe('rule catalogue', () => {
  it('has unique ids, each with a summary, a fix and a source', () => {
    expect(new Set(RULES.map((rule) => rule.id)).size).toBe(RULES.length)
    for (const rule of RULES) expect(rule.summary && rule.fix && rule.source, rule.id).toBeTruthy()
  })
  it('every rule is emitted somewhere and tested somewhere', () => {
    const source = read(SRC) + readFileSync(join(SRC, '..', 'project', 'classify.ts'), 'utf8')
    const tests = read(TESTS)
    for (const {id} of RULES) {
      expect(source.includes(`'${id}'`), `${id} emitted`).toBe(true)
      expect(tests.includes(id), `${id} tested`).toBe(true)
    }
  })
  it('every rule is documented in docs/standard.md', () => {
    const docs = readFileSync(join(SRC, '..', '..', '..', 'docs', 'standard.md'), 'utf8')
    for (const {id} of RULES) expect(docs.includes(`\`${id}\``), id).toBe(true)
  })
})
