import {chmodSync, existsSync, readFileSync} from 'node:fs'
import {createServer, type AddressInfo} from 'node:net'
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

  it("says why a detached start failed with the daemon's own message, whole", async () => {
    repo = makeRepo()
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as AddressInfo).port
    try {
      const failed = await runCli(['serve', '--detach', '--port', String(port)], {cwd: repo.root})
      expect(failed.code).toBe(1)
      const said = `The daemon could not listen on 127.0.0.1:${port}: port ${port} is already in use; pass another --port (0 picks a free one)`
      // One line, as the daemon said it: no oclif margins of the daemon's output, no wrapping of its own.
      expect(failed.stderr).toBe(`Error: The daemon did not start: ${said} (listen_failed; log: ${join(repo.root, '.mesh/.runtime/daemon.log')})\nCode: daemon_start_failed\n`)
      const asJson = await runCli(['serve', '--detach', '--port', String(port), '--json'], {cwd: repo.root})
      expect(asJson.code).toBe(1)
      expect(json(asJson).error).toEqual({code: 'daemon_start_failed', message: expect.stringContaining(`: ${said} (listen_failed; log: `)})
      expect(readFileSync(join(repo.root, '.mesh/.runtime/daemon.log'), 'utf8')).toContain(JSON.stringify({event: 'start_failed', error: {code: 'listen_failed', message: said}}))
    } finally {
      taken.close()
    }
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

describe('mesh daemon token', () => {
  it('refuses a token file other users may read, as the daemon does, and prints nothing of it', async () => {
    repo = makeRepo()
    const token = `mpt_${'x'.repeat(43)}`
    const file = join(repo.root, '.mesh/credentials/portal-token')
    repo.write('.mesh/credentials/portal-token', `${token}\n`)
    for (const mode of [0o644, 0o640, 0o604]) {
      chmodSync(file, mode)
      const refused = await runCli(['daemon', 'token', '--json'], {cwd: repo.root})
      expect([mode.toString(8), refused.code, json(refused).error.code]).toEqual([mode.toString(8), 1, 'portal_token_exposed'])
      expect(refused.stdout + refused.stderr).not.toContain(token)
    }
    const text = await runCli(['daemon', 'token'], {cwd: repo.root})
    expect(text.errorText).toBe(`Error: ${file} can be read by other users; run \`chmod 600 ${file}\` Code: portal_token_exposed`)
    // The daemon refuses the same file with the same words.
    const serve = await runCli(['serve', '--port', '0'], {cwd: repo.root})
    expect(serve.code).toBe(1)
    expect(serve.errorText).toContain(`${file} can be read by other users`)
    chmodSync(file, 0o600)
    const printed = await runCli(['daemon', 'token'], {cwd: repo.root})
    expect([printed.code, printed.stdout.trim()]).toEqual([0, `portal token: ${token}`])
  })
})

describe('mesh daemon logs', () => {
  it('prints the stream as NDJSON in a pipe, filters by tag and level, and follows new events', async () => {
    repo = makeRepo()
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    const started = await server.nextJson()
    const token = readFileSync(join(repo.root, '.mesh/credentials/portal-token'), 'utf8').trim()
    const post = (events: unknown[]) =>
      fetch(`${started.url}/debug/log`, {method: 'POST', headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body: JSON.stringify({events})})
    expect((await post([{lvl: 'warn', tag: 'ux.validation', msg: 'first'}, {lvl: 'debug', tag: 'ux.validation', msg: 'quiet'}])).status).toBe(200)

    const once = await runCli(['daemon', 'logs', '--tag', 'ux', '--level', 'info'], {cwd: repo.root})
    expect(once.code).toBe(0)
    const lines = once.stdout.trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.map((l) => l.msg)).toEqual(['first'])
    expect(lines[0]).toMatchObject({src: 'Architect IDE', lvl: 'warn', tag: 'ux.validation'})

    const follower = spawnCli(['daemon', 'logs', '--follow', '--tag', 'ux'], {cwd: repo.root})
    try {
      // The history first; then an event posted while it follows arrives through the cursor, once.
      expect(JSON.parse(await follower.nextLine()).msg).toBe('first')
      expect(JSON.parse(await follower.nextLine()).msg).toBe('quiet')
      await post([{lvl: 'error', tag: 'ux.run-all', msg: 'second'}, {lvl: 'info', tag: 'boot.other', msg: 'filtered out'}])
      expect(JSON.parse(await follower.nextLine())).toMatchObject({lvl: 'error', msg: 'second'})
      await post([{lvl: 'info', tag: 'ux', msg: 'third'}])
      expect(JSON.parse(await follower.nextLine()).msg).toBe('third')
    } finally {
      await follower.stop()
    }
  })

  it('--follow does not print its own polls of /debug/tail as http lines, and still prints other requests (issue 19)', async () => {
    repo = makeRepo()
    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    const started = await server.nextJson()
    const token = readFileSync(join(repo.root, '.mesh/credentials/portal-token'), 'utf8').trim()
    const mark = (msg: string) => fetch(`${started.url}/debug/log`, {method: 'POST', headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body: JSON.stringify({lvl: 'info', tag: 'ux', msg})})
    const follower = spawnCli(['daemon', 'logs', '--follow'], {cwd: repo.root})
    try {
      // Each mark is read by a later poll than the one before: the polls in between were answered and logged.
      for (const msg of ['mark-1', 'mark-2', 'mark-3']) {
        await mark(msg)
        await follower.waitFor((line) => JSON.parse(line).msg === msg)
      }
      await fetch(`${started.url}/health`)
      await mark('mark-4')
      await follower.waitFor((line) => JSON.parse(line).msg === 'mark-4')
      const http = follower.lines.map((line) => JSON.parse(line)).filter((event) => event.tag === 'http').map((event) => event.msg)
      expect(http).toContain('GET /health 200')
      expect(http.filter((msg) => msg.startsWith('GET /debug/tail'))).toEqual([])
    } finally {
      await follower.stop()
    }
  })

  it('without a daemon prints the stream the last one left, saying so; with none ever, says so and exits 1', async () => {
    repo = makeRepo()
    const never = await runCli(['daemon', 'logs'], {cwd: repo.root})
    expect(never.code).toBe(1)
    expect(never.errorText).toMatch(/No daemon serves this project, and none left a debug stream/)

    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    const started = await server.nextJson()
    const token = readFileSync(join(repo.root, '.mesh/credentials/portal-token'), 'utf8').trim()
    const posted = await fetch(`${started.url}/debug/log`, {method: 'POST', headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'}, body: JSON.stringify({events: [{lvl: 'warn', tag: 'ux.left', msg: 'before the stop'}]})})
    expect(posted.status).toBe(200)
    expect(await server.stop('SIGINT')).toBe(0)
    server = undefined

    const left = await runCli(['daemon', 'logs', '--tag', 'ux', '--json'], {cwd: repo.root})
    expect(left.code, left.stderr).toBe(0)
    expect(left.stderr).toBe('note: no daemon serves this project; read from the files on disk (.mesh/.runtime/debug.jsonl, as the last daemon left it)\n')
    expect(left.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([expect.objectContaining({lvl: 'warn', tag: 'ux.left', msg: 'before the stop'})])
    const boot = await runCli(['daemon', 'logs', '--tag', 'boot', '--level', 'info'], {cwd: repo.root})
    expect(boot.stdout).toMatch(/serving/)
    // --last bounds it as it bounds the daemon's tail.
    const none = await runCli(['daemon', 'logs', '--tag', 'ux', '--last', '0'], {cwd: repo.root})
    expect([none.code, none.stdout]).toEqual([0, ''])
  })
})
