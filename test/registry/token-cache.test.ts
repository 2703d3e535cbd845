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
  it('stays within its capacity and keeps at least the most recently used half', () => {
    const cache = new VerifiedTokenCache(4)
    for (const token of ['t1', 't2', 't3']) cache.set(token, claims(token))
    expect(cache.get('t1', 0)).toBeDefined() // used again: among the most recent now
    cache.set('t4', claims('t4'))
    expect(cache.size).toBeLessThanOrEqual(4)
    expect(cache.get('t1', 0)).toBeDefined()
    expect(cache.get('t4', 0)).toBeDefined()
    for (let i = 0; i < 100; i++) {
      cache.set(`n${i}`, claims('n'))
      expect(cache.size).toBeLessThanOrEqual(4)
    }
    expect(cache.get('n99', 0)).toBeDefined()
    expect(cache.get('n98', 0)).toBeDefined()
    expect(cache.get('t1', 0)).toBeUndefined()
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
