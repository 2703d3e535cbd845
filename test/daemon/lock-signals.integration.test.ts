/**
 * The daemon lock and a signal right after start (issue 21): Ctrl-C before
 * `mesh serve` has its own stop in place must not leave the lock behind. The
 * lock's guard runs in a process of its own (the built dist/: run `npm run
 * build` first), and `mesh serve` is interrupted for real.
 */
import {spawn} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {REPO_ROOT, spawnCli} from '../support/cli.js'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'

const LOCK = '.mesh/.runtime/daemon.lock'
let repo: FixtureRepo | undefined
afterEach(() => {
  repo?.cleanup()
  repo = undefined
})

/** A process that takes the lock, says `locked`, and waits; with `ownStop`, it stops on SIGINT itself, as mesh serve does once it listens. */
async function holdLock(root: string, ownStop: boolean) {
  const script = join(root, 'hold-lock.mjs')
  writeFileSync(
    script,
    `const {acquireDaemonLock} = await import(${JSON.stringify(join(REPO_ROOT, 'dist/daemon/runtime.js'))})
    const lock = await acquireDaemonLock(process.argv[2])
    ${ownStop ? "process.once('SIGINT', async () => { await lock.release(); process.stdout.write('own stop\\\\n'); process.exit(0) })" : ''}
    process.stdout.write('locked\\n')
    setInterval(() => {}, 1 << 30)`,
  )
  const child = spawn(process.execPath, [script, root], {stdio: ['ignore', 'pipe', 'pipe']})
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve((code ?? signal) as number | string)))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('locked\n') && resolve())
    void exited.then((code) => reject(new Error(`the lock holder ended (${code})`)))
  })
  return {child, exited, output: () => out}
}

describe('the daemon lock and signals', () => {
  it('removes the lock when SIGINT or SIGTERM ends the process before anything else listens', async () => {
    repo = makeRepo()
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const holder = await holdLock(repo.root, false)
      expect(existsSync(join(repo.root, LOCK))).toBe(true)
      holder.child.kill(signal)
      expect([signal, await holder.exited, existsSync(join(repo.root, LOCK))]).toEqual([signal, code, false])
    }
  })

  it("leaves the signal to the process's own stop once it has one", async () => {
    repo = makeRepo()
    const holder = await holdLock(repo.root, true)
    holder.child.kill('SIGINT')
    expect(await holder.exited).toBe(0)
    expect(holder.output()).toContain('own stop')
    expect(existsSync(join(repo.root, LOCK))).toBe(false)
  })

  it('mesh serve interrupted right after it took the lock, before it listens, leaves no lock behind', async () => {
    repo = makeRepo()
    const lock = join(repo.root, LOCK)
    // The interrupt must land between the lock and the start line: a run that listened first is tried again.
    let interrupted = 0
    for (let attempt = 0; attempt < 5 && interrupted === 0; attempt++) {
      const server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
      while (!existsSync(lock) && server.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 2))
      const code = await server.stop('SIGINT')
      if (server.lines.some((line) => line.includes('"listening"'))) continue
      interrupted++
      expect(code).toBe(130)
      expect(existsSync(lock)).toBe(false)
      expect(existsSync(join(repo.root, '.mesh/.runtime/daemon.json'))).toBe(false)
    }
    expect(interrupted).toBe(1)
  })
})
