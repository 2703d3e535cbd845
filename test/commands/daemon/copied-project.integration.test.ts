/**
 * A project folder copied while its daemon runs (`cp -r`, a backup restored
 * beside it) carries `.mesh/.runtime/daemon.json`, the lock and the portal
 * token of the original's live daemon. The copy must not take that daemon
 * for its own: its writes would land in the original project, `mesh daemon
 * stop` would stop the original's daemon and `mesh serve` would refuse.
 * daemon.json names the real root it serves (docs/daemon.md, Start and find).
 */
import {cpSync, existsSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

let repo: FixtureRepo | undefined
let copy: string | undefined
const servers: SpawnedCli[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop()
  repo?.cleanup()
  if (copy) rmSync(copy, {recursive: true, force: true})
  repo = copy = undefined
})

const tasksOf = (root: string) => (existsSync(join(root, '.mesh/modules/general/tasks')) ? readdirSync(join(root, '.mesh/modules/general/tasks')) : [])

describe('a project copied while its daemon runs', () => {
  it("is not served by the original's daemon: status says stopped, writes are local, stop leaves the original alone, serve starts its own", async () => {
    repo = makeRepo()
    const original = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    servers.push(original)
    const started = await original.nextJson()
    expect(started.event).toBe('listening')

    copy = mkdtempSync(join(tmpdir(), 'mesh-copied-'))
    cpSync(repo.root, copy, {recursive: true})
    const before = tasksOf(repo.root)

    expect(json(await runCli(['daemon', 'status', '--json'], {cwd: copy})).state).not.toBe('running')
    const created = await runCli(['task', 'create', '-m', 'general', '-t', 'Only in the copy', '--json'], {cwd: copy})
    expect(created.code, created.stderr).toBe(0)
    expect(json(created)).toMatchObject({via: 'local'})
    expect(tasksOf(copy)).toHaveLength(before.length + 1)
    expect(tasksOf(repo.root)).toEqual(before)

    await runCli(['daemon', 'stop'], {cwd: copy})
    expect(json(await runCli(['daemon', 'status', '--json'], {cwd: repo.root}))).toMatchObject({state: 'running', url: started.url})

    const own = spawnCli(['serve', '--port', '0', '--json'], {cwd: copy})
    servers.push(own)
    const ownStarted = await own.nextJson()
    expect(ownStarted).toMatchObject({event: 'listening'})
    expect(ownStarted.url).not.toBe(started.url)
    expect(json(await runCli(['daemon', 'status', '--json'], {cwd: copy}))).toMatchObject({state: 'running', url: ownStarted.url})
  })
})
