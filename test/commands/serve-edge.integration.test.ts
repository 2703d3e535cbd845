/**
 * The process edge every `serve` shares (src/cli/serve-process.ts): a second
 * server on a port the first one holds fails with the same `listen_failed`
 * sentence, whichever command it is — `mesh serve registry`, `mesh serve
 * relay`, `mesh agent serve`, `mesh serve` (the daemon) and both listeners
 * of `mesh up` — each naming its own port flag; the SQLite file each opened
 * is owner-only; the first server still stops cleanly on SIGTERM.
 */
import {statSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {makeRepo, type FixtureRepo} from '../standard/fixtures.js'
import {REPO_ROOT, runCli, startServer, type CliResult, type RunningServer} from '../support/cli.js'

let first: RunningServer
let port: number
let dir: string
let repo: FixtureRepo
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mesh-edge-'))
  repo = makeRepo()
  first = await startServer('relay', ['--data', join(dir, 'first'), '--json'])
  port = Number(new URL(first.url).port)
})
afterAll(async () => {
  await first?.stop()
  repo?.cleanup()
  await rm(dir, {recursive: true, force: true})
})

const mode = (path: string) => statSync(path).mode & 0o777
const inUse = (service: string, portFlag: string) => ({
  code: 'listen_failed',
  message: `The ${service} could not listen on 127.0.0.1:${port}: port ${port} is already in use; pass another ${portFlag} (0 picks a free one)`,
})
/** Under --json the error is stdout's only line; exit 1, no stack trace. */
function failure(result: CliResult) {
  expect(result.code, result.stdout + result.stderr).toBe(1)
  expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /)
  const lines = result.stdout.trim().split('\n')
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]).error
}

describe('a second serve on a port in use', () => {
  it('mesh serve registry and mesh serve relay: the one sentence, and the database they opened is owner-only', async () => {
    for (const service of ['registry', 'relay']) {
      const data = join(dir, service)
      const result = await runCli(['serve', service, '--port', String(port), '--data', data, '--json'], {env: {MESH_LOG_LEVEL: 'warn'}})
      expect(failure(result), service).toEqual(inUse(service, '--port'))
      expect(mode(data)).toBe(0o700)
      expect(mode(join(data, 'mesh.db'))).toBe(0o600)
    }
    // The first server's files too (the relay's mesh.db was world-readable before openStorage).
    expect(mode(join(dir, 'first', 'mesh.db'))).toBe(0o600)
    expect(mode(join(dir, 'first', 'mesh.db-wal'))).toBe(0o600)
  })

  it('mesh agent serve: the same sentence', async () => {
    const data = join(dir, 'agent')
    const result = await runCli(['agent', 'serve', join(REPO_ROOT, 'examples/echo'), '--port', String(port), '--data', data, '--no-register', '--json'], {env: {MESH_LOG_LEVEL: 'warn'}})
    expect(failure(result)).toEqual(inUse('agent', '--port'))
    expect(mode(join(data, 'mesh.db'))).toBe(0o600)
  })

  it('mesh serve (the daemon) on a fixed --port: the same sentence', async () => {
    const result = await runCli(['serve', '--dir', repo.root, '--port', String(port), '--json'], {env: {MESH_LOG_LEVEL: 'warn'}})
    expect(failure(result)).toEqual(inUse('daemon', '--port'))
  })

  it('mesh up: the same sentence for its daemon and for its registry, each naming its own flag', async () => {
    const daemon = await runCli(['up', '--dir', repo.root, '--daemon-port', String(port), '--registry-port', '0', '--json'])
    expect(failure(daemon)).toEqual(inUse('daemon', '--daemon-port'))
    const registry = await runCli(['up', '--dir', repo.root, '--daemon-port', '0', '--registry-port', String(port), '--json'])
    expect(failure(registry)).toEqual(inUse('registry', '--registry-port'))
    expect(mode(join(repo.root, '.mesh/.runtime/network/mesh.db'))).toBe(0o600)
  })

  it('left the first server serving; SIGTERM stops it cleanly', async () => {
    expect((await fetch(`${first.url}/health`)).status).toBe(200)
    expect(await first.stop('SIGTERM')).toBe(0)
    expect(JSON.parse(first.lines.at(-1)!)).toEqual({event: 'stopped', service: 'relay', signal: 'SIGTERM'})
  })
})
