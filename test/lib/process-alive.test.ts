import {describe, expect, it} from 'vitest'
import {isProcessAlive} from '../../src/lib/process-alive.js'

describe('isProcessAlive', () => {
  it('knows this process, and pid 1 (alive, if not ours: EPERM)', () => {
    expect(isProcessAlive(process.pid)).toBe(true)
    expect(isProcessAlive(1)).toBe(true)
  })

  it('never signals what is not one process: 0, negatives (process groups), fractions, NaN', () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(isProcessAlive(pid), String(pid)).toBe(false)
  })

  it('a pid past the largest one the kernel hands out names nobody', () => {
    expect(isProcessAlive(2 ** 22 + 1)).toBe(false)
  })
})
