import {describe, expect, it} from 'vitest'
import {FieldedBm25} from '../../../src/registry/search/bm25.js'
import {TopK} from '../../../src/registry/search/top-k.js'

const fields = [
  {name: 'name', weight: 3, b: 0.5},
  {name: 'body', weight: 1, b: 0.75},
]

function build() {
  return new FieldedBm25<string>({fields, k1: 1.2, compactRatio: 0.25})
}

function rank(index: FieldedBm25<string>, terms: string[]) {
  const hits: Array<[string, number]> = []
  index.search(terms, (payload, score) => hits.push([payload, score]))
  return hits.sort((a, b) => b[1] - a[1]).map(([payload]) => payload)
}

describe('FieldedBm25', () => {
  it('ranks a name match above a body match of the same term', () => {
    const index = build()
    index.upsert('a', [['weather'], ['forecasts', 'for', 'cities']], 'a')
    index.upsert('b', [['helper'], ['weather', 'and', 'more', 'things']], 'b')
    index.upsert('c', [['other'], ['nothing', 'here']], 'c')
    expect(rank(index, ['weather'])).toEqual(['a', 'b'])
  })

  it('weighs rare terms above common ones (idf)', () => {
    const index = build()
    for (let i = 0; i < 20; i++) index.upsert(`common${i}`, [[], ['agent']], `common${i}`)
    index.upsert('rare', [[], ['agent', 'ocr']], 'rare')
    index.upsert('common-only', [[], ['agent', 'agent']], 'common-only')
    expect(rank(index, ['agent', 'ocr'])[0]).toBe('rare')
  })

  it('scores each query term once however often it is repeated', () => {
    const index = build()
    index.upsert('a', [['x'], []], 'a')
    const once: number[] = []
    const twice: number[] = []
    index.search(['x'], (_, s) => once.push(s))
    index.search(['x', 'x'], (_, s) => twice.push(s))
    expect(twice).toEqual(once)
  })

  it('replaces a document on upsert and forgets removed ones', () => {
    const index = build()
    index.upsert('a', [['alpha'], []], 'a1')
    index.upsert('a', [['beta'], []], 'a2')
    expect(rank(index, ['alpha'])).toEqual([])
    expect(rank(index, ['beta'])).toEqual(['a2'])
    expect(index.size).toBe(1)
    expect(index.remove('a')).toBe(true)
    expect(index.remove('a')).toBe(false)
    expect(rank(index, ['beta'])).toEqual([])
    expect(index.size).toBe(0)
  })

  it('gives the same scores after compaction as a freshly built index', () => {
    const churned = build()
    const fresh = build()
    for (let i = 0; i < 400; i++) churned.upsert(`d${i}`, [[`n${i % 7}`], ['shared', `t${i % 13}`]], `d${i}`)
    for (let i = 0; i < 300; i++) churned.remove(`d${i}`) // triggers compaction more than once
    for (let i = 300; i < 400; i++) fresh.upsert(`d${i}`, [[`n${i % 7}`], ['shared', `t${i % 13}`]], `d${i}`)
    const scores = (index: FieldedBm25<string>) => {
      const out = new Map<string, number>()
      index.search(['shared', 'n3', 't5'], (payload, score) => out.set(payload, score))
      return out
    }
    const a = scores(churned)
    const b = scores(fresh)
    expect(a.size).toBe(100)
    for (const [key, value] of b) expect(a.get(key)).toBeCloseTo(value, 10)
    expect([...churned.all()].sort()).toEqual([...fresh.all()].sort())
  })

  it('swaps a payload without touching the text', () => {
    const index = build()
    index.upsert('a', [['alpha'], []], 'old')
    expect(index.setPayload('a', 'new', 1)).toBe(true)
    expect(index.setPayload('zz', 'x', 1)).toBe(false)
    expect(rank(index, ['alpha'])).toEqual(['new'])
  })
})

describe('TopK', () => {
  it('keeps the k best, best first, equal scores by lower tie value', () => {
    const top = new TopK<string>(3)
    const items: Array<[string, number, number]> = [['e', 1, 0], ['a', 5, 3], ['d', 2, 0], ['b', 5, 1], ['c', 9, 0], ['f', 0.5, 0], ['g', 5, 2]]
    for (const [item, score, tie] of items) top.push(item, score, tie)
    expect(top.sorted().map((x) => x.item)).toEqual(['c', 'b', 'g'])
    expect(top.size).toBe(3)
    expect(top.worstScore).toBe(5)
    expect(top.worstTie).toBe(2)
    expect(top.admits(5, 1)).toBe(true)
    expect(top.admits(5, 2)).toBe(false)
    expect(top.admits(4, 0)).toBe(false)
  })

  it('matches a full sort on random input', () => {
    const values = Array.from({length: 500}, (_, i) => ({id: i, score: Math.floor(Math.random() * 50)}))
    const top = new TopK<number>(25)
    for (const v of values) top.push(v.id, v.score, v.id)
    const expected = [...values].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 25).map((v) => v.id)
    expect(top.sorted().map((x) => x.item)).toEqual(expected)
  })

  it('keeps nothing when k is 0', () => {
    const top = new TopK<string>(0)
    top.push('a', 1, 0)
    expect(top.sorted()).toEqual([])
    expect(top.admits(1, 0)).toBe(false)
  })
})

describe('FieldedBm25.top', () => {
  // A seeded generator so a failure reproduces.
  function prng(seed: number) {
    let state = seed >>> 0
    return () => {
      state = (state * 1664525 + 1013904223) >>> 0
      return state / 4294967296
    }
  }

  function bruteForce(index: FieldedBm25<string>, terms: string[], k: number, weigh: (p: string) => number) {
    const all: Array<{item: string; score: number}> = []
    index.search(terms, (item, score) => {
      const w = weigh(item)
      if (w > 0) all.push({item, score: score * w})
    })
    return all.sort((a, b) => b.score - a.score || FieldedBm25.tieOf(a.item) - FieldedBm25.tieOf(b.item)).slice(0, k)
  }

  it('returns exactly the brute-force top k, with pruning of common terms on and off', () => {
    const random = prng(11)
    const vocabulary = Array.from({length: 40}, (_, i) => `w${i}`)
    // Skewed: low-numbered words are common, high-numbered ones rare.
    const word = () => vocabulary[Math.floor(random() ** 3 * vocabulary.length)]
    const index = new FieldedBm25<string>({fields, k1: 1.2, compactRatio: 0.25, commonShare: 0.1})
    const weights = new Map<string, number>()
    const rejected = new Set<string>()
    for (let i = 0; i < 600; i++) {
      const id = `d${String(i).padStart(3, '0')}`
      const weight = random() < 0.2 ? 0 : 0.85 + random() * 0.35
      weights.set(id, weight)
      if (random() < 0.3) rejected.add(id) // a query-time filter says no
      index.upsert(id, [[word(), word()], Array.from({length: 3 + Math.floor(random() * 12)}, word)], id, weight)
    }
    const weigh = (id: string) => (rejected.has(id) ? 0 : weights.get(id)!)
    const accept = (id: string) => !rejected.has(id)
    for (let q = 0; q < 200; q++) {
      const terms = Array.from({length: 1 + Math.floor(random() * 4)}, word)
      const k = 1 + Math.floor(random() * 12)
      const expected = bruteForce(index, terms, k, weigh)
      const actual = index.top(terms, {k, accept, maxWeight: 1.2})
      expect(actual.map((h) => h.item)).toEqual(expected.map((h) => h.item))
      for (let i = 0; i < actual.length; i++) expect(actual[i].score).toBeCloseTo(expected[i].score, 10)
    }
  })
})
