import {describe, expect, it} from 'vitest'
import {looksLikeSlug, slugify} from '../../src/cluster/slug.js'
import {looksLikeClusterId, newClusterId, tokenMatches, hashToken} from '../../src/cluster/tokens.js'

describe('slugify', () => {
  it('kebab-cases names, folding accents and punctuation', () => {
    expect(slugify('Hello World')).toBe('hello-world')
    expect(slugify('  Café -- du   Monde!! ')).toBe('cafe-du-monde')
    expect(slugify('Agents_of_Berlin 2025')).toBe('agents-of-berlin-2025')
    expect(slugify('日本')).toBeNull()
    expect(slugify('x'.repeat(100))).toHaveLength(64)
  })
  it('never produces something shaped like a cluster id', () => {
    for (const name of ['c_abc', 'C_1234567890123456789012']) {
      const slug = slugify(name)!
      expect(looksLikeSlug(slug)).toBe(true)
      expect(looksLikeClusterId(slug)).toBe(false)
    }
  })
})

describe('ids and tokens', () => {
  it('makes ids with at least 128 random bits that look like ids', () => {
    const ids = new Set(Array.from({length: 100}, newClusterId))
    expect(ids.size).toBe(100)
    for (const id of ids) expect(looksLikeClusterId(id)).toBe(true)
  })
  it('matches tokens against their digest only', () => {
    const hash = hashToken('ck_secret')
    expect(tokenMatches('ck_secret', hash)).toBe(true)
    expect(tokenMatches('ck_secreT', hash)).toBe(false)
    expect(tokenMatches('', hash)).toBe(false)
  })
})
