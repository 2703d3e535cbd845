import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {CARD_RULES} from '../../../src/agent/card-lint/index.js'
import {PART_MESSAGES} from '../../../src/agent/card-lint/description.js'

const ROOT = join(__dirname, '..', '..', '..')
const SRC = join(ROOT, 'src', 'agent', 'card-lint')
const source = readdirSync(SRC)
  .filter((name) => name !== 'rules.ts')
  .map((name) => readFileSync(join(SRC, name), 'utf8'))
  .join('\n')

describe('card rule catalogue', () => {
  it('has unique ids, each with a summary, a fix and a source', () => {
    expect(new Set(CARD_RULES.map((rule) => rule.id)).size).toBe(CARD_RULES.length)
    for (const rule of CARD_RULES) expect(rule.summary && rule.fix && rule.source, rule.id).toBeTruthy()
  })

  it('every rule is emitted somewhere (skill-description-<part> through the parts table)', () => {
    for (const {id} of CARD_RULES) {
      const part = id.startsWith('skill-description-') ? id.slice('skill-description-'.length) : undefined
      expect(part ? part in PART_MESSAGES : source.includes(`'${id}'`), id).toBe(true)
    }
    expect(Object.keys(PART_MESSAGES).map((part) => `skill-description-${part}`).every((id) => CARD_RULES.some((rule) => rule.id === id))).toBe(true)
  })

  it('docs/cards.md has a table row for every rule with its severity', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'cards.md'), 'utf8')
    for (const {id, severity} of CARD_RULES) expect(docs, id).toMatch(new RegExp(`^\\| \`${id}\` \\| ${severity} \\|`, 'm'))
  })
})
