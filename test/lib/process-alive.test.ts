import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {describe, expect, it, vi} from 'vitest'
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

  it.runIf(process.platform === 'linux')('a killed process its parent has not reaped (a zombie) is not alive', async () => {
    // The shell's background child exits at once; the shell becomes `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], {stdio: ['ignore', 'pipe', 'ignore']})
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk) => resolve(String(chunk).trim()))))
      await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /))
      expect(isProcessAlive(pid)).toBe(false)
      expect(isProcessAlive(parent.pid!)).toBe(true)
    } finally {
      parent.kill()
    }
  })
})
