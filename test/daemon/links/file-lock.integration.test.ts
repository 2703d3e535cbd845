import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {afterEach, describe, expect, it} from 'vitest'
import {withFileLock} from '../../../src/daemon/links/file-lock.js'
import {caught} from '../../support/caught.js'

let dir = ''
let sleeper: ChildProcess | undefined
afterEach(() => {
  sleeper?.kill()
  sleeper = undefined
  if (dir) rmSync(dir, {recursive: true, force: true})
})

const lockIn = () => {
  dir = mkdtempSync(join(tmpdir(), 'mesh-lock-'))
  return join(dir, 'links.lock')
}

/** A live process that is not this one, to own a lock. */
async function liveOtherPid(): Promise<number> {
  sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {stdio: 'ignore'})
  await new Promise((resolve) => sleeper!.once('spawn', resolve))
  return sleeper.pid!
}

describe('withFileLock', () => {
  it('never lets two holders in at once, even in one process, and removes the file after', async () => {
    const path = lockIn()
    let inside = 0
    let most = 0
    const order: number[] = []
    await Promise.all(
      Array.from({length: 12}, (_, n) =>
        withFileLock(path, async () => {
          inside++
          most = Math.max(most, inside)
          await sleep(2)
          order.push(n)
          inside--
        }, {pollMs: 1}),
      ),
    )
    expect(most).toBe(1)
    expect(order.sort((a, b) => a - b)).toEqual(Array.from({length: 12}, (_, n) => n))
    expect(existsSync(path)).toBe(false)
    expect(readdirSync(dir)).toEqual([])
  })

  it('takes over a lock whose pid is dead, and one older than any hold', async () => {
    const path = lockIn()
    writeFileSync(path, '999999 left-by-a-killed-process\n')
    expect(await withFileLock(path, async () => 'ran')).toBe('ran')
    expect(existsSync(path)).toBe(false)

    writeFileSync(path, `${await liveOtherPid()} stuck\n`)
    const old = new Date(Date.now() - 120_000)
    utimesSync(path, old, old)
    expect(await withFileLock(path, async () => 'ran', {staleMs: 60_000})).toBe('ran')
  })

  it('waits for a live owner at most waitMs, then refuses with the busy error and leaves the lock', async () => {
    const path = lockIn()
    const owner = await liveOtherPid()
    writeFileSync(path, `${owner} live\n`)
    let ran = false
    const error = await caught(withFileLock(path, async () => (ran = true), {waitMs: 100, pollMs: 5}))
    expect(error).toMatchObject({code: 'file_locked', kind: 'unavailable'})
    expect(error.message).toContain(String(owner))
    expect(ran).toBe(false)
    expect(existsSync(path)).toBe(true)
  })

  it('gets the lock once a live owner lets go', async () => {
    const path = lockIn()
    writeFileSync(path, `${await liveOtherPid()} live\n`)
    const waiting = withFileLock(path, async () => 'after', {waitMs: 10_000, pollMs: 5})
    await sleep(30)
    rmSync(path)
    expect(await waiting).toBe('after')
  })
})
