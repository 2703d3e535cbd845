import {describe, expect, it} from 'vitest'
import {VerifiedTokenCache} from '../../src/registry/token-cache.js'

const claims = (agentId: string, expiresAtMs = 10_000) => ({agentId, keyHint: 'k'.repeat(16), expiresAtMs})

describe('VerifiedTokenCache', () => {
  it('answers a remembered token until its exp, then forgets it', () => {
    const cache = new VerifiedTokenCache(10)
    cache.set('t1', claims('alpha', 5_000))
    expect(cache.get('t1', 4_999)).toEqual(claims('alpha', 5_000))
    expect(cache.get('t1', 5_000)).toBeUndefined()
    expect(cache.size).toBe(0)
    expect(cache.get('unknown', 0)).toBeUndefined()
  })
  it('evicts the least recently used entry past its capacity', () => {
    const cache = new VerifiedTokenCache(2)
    cache.set('t1', claims('a'))
    cache.set('t2', claims('b'))
    expect(cache.get('t1', 0)).toBeDefined() // t1 is now the most recent
    cache.set('t3', claims('c'))
    expect(cache.get('t2', 0)).toBeUndefined()
    expect(cache.get('t1', 0)).toBeDefined()
    expect(cache.get('t3', 0)).toBeDefined()
    expect(cache.size).toBe(2)
  })
  it('forgets every token of one agent', () => {
    const cache = new VerifiedTokenCache(10)
    cache.set('t1', claims('a'))
    cache.set('t2', claims('b'))
    cache.set('t3', claims('a'))
    cache.forgetAgent('a')
    expect([cache.get('t1', 0), cache.get('t2', 0), cache.get('t3', 0)].map(Boolean)).toEqual([false, true, false])
  })
  it('remembers nothing with capacity 0 and refuses a bad capacity', () => {
    const cache = new VerifiedTokenCache(0)
    cache.set('t1', claims('a'))
    expect(cache.get('t1', 0)).toBeUndefined()
    expect(() => new VerifiedTokenCache(-1)).toThrow(TypeError)
  })
})
