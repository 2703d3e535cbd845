import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {createPathDebouncer, type SettledBurst} from '../../../src/daemon/watch/debounce.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('path debouncer', () => {
  it('hands on one burst per path once its events pause, remembering whether the file was there before', () => {
    const settled: SettledBurst[] = []
    const debouncer = createPathDebouncer({windowMs: 50, maxWaitMs: 300, onSettled: (burst) => settled.push(burst)})
    debouncer.push('a.md', 'add')
    debouncer.push('a.md', 'change')
    debouncer.push('b.md', 'unlink')
    vi.advanceTimersByTime(40)
    debouncer.push('a.md', 'change')
    vi.advanceTimersByTime(40)
    expect(settled).toEqual([{path: 'b.md', existedBefore: true}])
    vi.advanceTimersByTime(20)
    expect(settled).toEqual([{path: 'b.md', existedBefore: true}, {path: 'a.md', existedBefore: false}])
    expect(debouncer.pending).toBe(0)
  })

  it('still reports a path written without pause once the longest wait is over', () => {
    const settled: SettledBurst[] = []
    const debouncer = createPathDebouncer({windowMs: 50, maxWaitMs: 300, onSettled: (burst) => settled.push(burst)})
    for (let i = 0; i < 20; i++) {
      debouncer.push('log.jsonl', 'change')
      vi.advanceTimersByTime(30)
    }
    expect(settled.length).toBeGreaterThanOrEqual(1)
    expect(settled.length).toBeLessThan(20)
  })

  it('drops pending bursts on clear', () => {
    const settled: SettledBurst[] = []
    const debouncer = createPathDebouncer({windowMs: 50, maxWaitMs: 300, onSettled: (burst) => settled.push(burst)})
    debouncer.push('a.md', 'change')
    debouncer.clear()
    vi.advanceTimersByTime(1000)
    expect(settled).toEqual([])
  })
})
