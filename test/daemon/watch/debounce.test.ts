import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {createPathDebouncer, type SettledBurst} from '../../../src/daemon/watch/debounce.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('path debouncer', () => {
  it('hands on one burst per path once its events pause', () => {
    const settled: SettledBurst[] = []
    const debouncer = createPathDebouncer({windowMs: 50, maxWaitMs: 300, onSettled: (burst) => settled.push(burst)})
    debouncer.push('a.md')
    debouncer.push('a.md')
    debouncer.push('b.md')
    vi.advanceTimersByTime(40)
    debouncer.push('a.md')
    vi.advanceTimersByTime(40)
    expect(settled).toEqual([{path: 'b.md'}])
    vi.advanceTimersByTime(20)
    expect(settled).toEqual([{path: 'b.md'}, {path: 'a.md'}])
    expect(debouncer.pending).toBe(0)
  })

  it('still reports a path written without pause once the longest wait is over', () => {
    const settled: SettledBurst[] = []
    const debouncer = createPathDebouncer({windowMs: 50, maxWaitMs: 300, onSettled: (burst) => settled.push(burst)})
    for (let i = 0; i < 20; i++) {
      debouncer.push('log.jsonl')
      vi.advanceTimersByTime(30)
    }
    expect(settled.length).toBeGreaterThanOrEqual(1)
    expect(settled.length).toBeLessThan(20)
  })

  it('drops pending bursts on clear', () => {
    const settled: SettledBurst[] = []
    const debouncer = createPathDebouncer({windowMs: 50, maxWaitMs: 300, onSettled: (burst) => settled.push(burst)})
    debouncer.push('a.md')
    debouncer.clear()
    vi.advanceTimersByTime(1000)
    expect(settled).toEqual([])
  })
})
