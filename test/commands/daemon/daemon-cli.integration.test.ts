import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

let repo: FixtureRepo | undefined
let server: SpawnedCli | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
  if (repo) await runCli(['daemon', 'stop', '--dir', repo.root])
  repo?.cleanup()
  repo = undefined
})

describe('mesh serve (the daemon)', () => {
  it('serves the project from a subfolder, is found by daemon status/token, refuses a second one and stops cleanly', async () => {
    repo = makeRepo()
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: join(repo.root, '.mesh', 'docs')})
    const started = await server.nextJson()
    expect(started).toMatchObject({event: 'listening', root: repo.root})
    const runtime = JSON.parse(readFileSync(join(repo.root, '.mesh/.runtime/daemon.json'), 'utf8'))
    expect(runtime.port).toBe(started.port)

    const status = json(await runCli(['daemon', 'status', '--json'], {cwd: repo.root}))
    expect(status).toMatchObject({state: 'running', url: started.url, pid: runtime.pid})
    expect(status.health.cluster_id).toBe('demo')

    const token = await runCli(['daemon', 'token'], {cwd: repo.root})
    expect(token.code).toBe(0)
    const word = token.stdout.trim().split(/\s+/).pop()
    expect(word).toBe(readFileSync(join(repo.root, '.mesh/credentials/portal-token'), 'utf8').trim())

    const second = await runCli(['serve', '--port', '0'], {cwd: repo.root})
    expect(second.code).toBe(1)
    expect(second.errorText).toMatch(/Another mesh daemon \(pid \d+\) already serves this project/)

    expect(await server.stop('SIGINT')).toBe(0)
    expect(existsSync(join(repo.root, '.mesh/.runtime/daemon.json'))).toBe(false)
    const after = await runCli(['daemon', 'status', '--json'], {cwd: repo.root})
    expect(after.code).toBe(1)
    expect(json(after).state).toBe('stopped')
  })

  it('starts detached, answers, and daemon stop ends it', async () => {
    repo = makeRepo()
    const detached = await runCli(['serve', '--detach', '--port', '0', '--json'], {cwd: repo.root})
    expect(detached.code).toBe(0)
    const info = json(detached)
    expect(info.event).toBe('detached')
    const health = await fetch(`${info.url}/health`)
    expect(health.status).toBe(200)
    const again = json(await runCli(['serve', '--detach', '--json'], {cwd: repo.root}))
    expect(again).toMatchObject({event: 'already_running', pid: info.pid})
    const stopped = json(await runCli(['daemon', 'stop', '--json'], {cwd: repo.root}))
    expect(stopped).toEqual({was: 'running', pid: info.pid})
    expect(existsSync(join(repo.root, '.mesh/.runtime/daemon.json'))).toBe(false)
  })

  it('recovers from a daemon killed with SIGKILL', async () => {
    repo = makeRepo()
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    await server.nextJson()
    await server.stop('SIGKILL')
    server = undefined
    expect(json(await runCli(['daemon', 'status', '--json'], {cwd: repo.root})).state).toBe('stale')
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    expect((await server.nextJson()).event).toBe('listening')
  })

  it('outside a project says so and exits non-zero', async () => {
    const outside = await runCli(['serve'], {cwd: '/'})
    expect(outside.code).not.toBe(0)
    expect(outside.errorText).toMatch(/No \.mesh\/ folder/)
    expect(outside.stderr).not.toMatch(/\n\s+at /)
  })
})
