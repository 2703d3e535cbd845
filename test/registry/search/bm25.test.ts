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
    expect(index.setPayload('a', 'new')).toBe(true)
    expect(index.setPayload('zz', 'x')).toBe(false)
    expect(rank(index, ['alpha'])).toEqual(['new'])
  })
})

describe('TopK', () => {
  it('keeps the k best, best first, ties broken deterministically', () => {
    const top = new TopK<string>(3, (a, b) => a < b)
    const items: Array<[string, number]> = [['e', 1], ['a', 5], ['d', 2], ['b', 5], ['c', 9], ['f', 0.5], ['g', 5]]
    for (const [item, score] of items) top.push(item, score)
    expect(top.sorted().map((x) => x.item)).toEqual(['c', 'a', 'b'])
  })

  it('matches a full sort on random input', () => {
    const values = Array.from({length: 500}, (_, i) => ({id: i, score: Math.floor(Math.random() * 50)}))
    const top = new TopK<number>(25, (a, b) => a < b)
    for (const v of values) top.push(v.id, v.score)
    const expected = [...values].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 25).map((v) => v.id)
    expect(top.sorted().map((x) => x.item)).toEqual(expected)
  })

  it('keeps nothing when k is 0', () => {
    const top = new TopK<string>(0)
    top.push('a', 1)
    expect(top.sorted()).toEqual([])
  })
})
