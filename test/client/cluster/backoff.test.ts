import {describe, expect, it} from 'vitest'
import {createBackoff} from '../../../src/client/cluster/backoff.js'

describe('createBackoff', () => {
  it('doubles from base up to the ceiling when jitter draws 0', () => {
    const backoff = createBackoff({baseMs: 100, maxMs: 1000, jitter: 0.5, random: () => 0})
    expect(Array.from({length: 6}, () => backoff.next())).toEqual([100, 200, 400, 800, 1000, 1000])
    expect(backoff.attempt).toBe(6)
  })

  it('jitter takes up to the given fraction off each delay', () => {
    const draws = [0.999999, 0.5, 0]
    const backoff = createBackoff({baseMs: 1000, maxMs: 10_000, jitter: 0.5, random: () => draws.shift()!})
    expect(backoff.next()).toBe(500) // 1000 · (1 − 0.5·~1)
    expect(backoff.next()).toBe(1500) // 2000 · (1 − 0.25)
    expect(backoff.next()).toBe(4000)
  })

  it('starts over after reset', () => {
    const backoff = createBackoff({baseMs: 10, maxMs: 100, jitter: 0, random: () => 0.7})
    backoff.next()
    backoff.next()
    backoff.reset()
    expect(backoff.attempt).toBe(0)
    expect(backoff.next()).toBe(10)
  })

  it('stays finite after very many attempts', () => {
    const backoff = createBackoff({baseMs: 10, maxMs: 100, jitter: 0})
    for (let i = 0; i < 2000; i++) backoff.next()
    expect(backoff.next()).toBe(100)
  })

  it('refuses nonsense options', () => {
    expect(() => createBackoff({baseMs: 0})).toThrow(TypeError)
    expect(() => createBackoff({baseMs: 100, maxMs: 50})).toThrow(TypeError)
    expect(() => createBackoff({jitter: 2})).toThrow(TypeError)
  })
})
