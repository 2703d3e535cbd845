/**
 * Both servers check their flags the same way before anything starts (usage
 * errors, exit 2) and fail to start the same way (exit 1, the backend named),
 * never echoing a URL's password, never with a stack trace.
 */
import {once} from 'node:events'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {createServer as createNetServer, type Server} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli, SERVICES, type CliResult} from '../../support/cli.js'

const PASSWORD = 'hunter2'
// Only warnings and errors on stderr, as an operator's quiet start.
const QUIET = {MESH_LOG_LEVEL: 'warn'}
const dirs: string[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) server.close()
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-checks-'))
  dirs.push(dir)
  return dir
}
/** A port with a listener on it (kept open until the test ends). */
async function busyPort() {
  const server = createNetServer().listen(0, '127.0.0.1')
  servers.push(server)
  await once(server, 'listening')
  return (server.address() as {port: number}).port
}
/** A port nobody listens on. */
async function closedPort() {
  const server = createNetServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const {port} = server.address() as {port: number}
  await new Promise((resolve) => server.close(resolve))
  return port
}

function expectClean(result: CliResult, exit: number) {
  expect(result.code, result.stderr + result.stdout).toBe(exit)
  const all = result.stdout + result.stderr
  expect(all).not.toMatch(/\n\s+at /)
  expect(all).not.toMatch(/TypeError|node_modules|\/src\/|\/dist\//)
  expect(all).not.toContain(PASSWORD)
}
/** Under --json stdout is NDJSON: the error is its only line (no "listening" before it). */
function onlyError(stdout: string): {code: string; message: string} {
  const lines = stdout.trim().split('\n')
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]).error
}

describe.each(SERVICES)('mesh serve %s', (service) => {
  const serve = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['serve', service, '--port', '0', ...args], {env: {...QUIET, ...env}})

  it('refuses bad flags as usage errors (exit 2) before starting, never echoing a password', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'data-file'), 'x')
    const data = ['--data', join(dir, 'd')]
    const cases: Array<[string[], string]> = [
      [['--data', join(dir, 'data-file')], 'usage_data_dir'],
      [['--data', join(dir, 'data-file', 'below')], 'usage_data_dir'],
      [[...data, '--public-url', 'http://a b'], 'usage_public_url'],
      [[...data, '--public-url', 'relay.example'], 'usage_public_url'],
      [[...data, '--public-url', 'ftp://mesh.example'], 'usage_public_url'],
      [[...data, '--database-url', `postgres://mesh:${PASSWORD}@[bad/db`], 'usage_database_url'],
      [[...data, '--database-url', `mysql://mesh:${PASSWORD}@db/mesh`], 'usage_database_url'],
      [[...data, '--database-schema', 'drop table;'], 'usage_database_schema'],
      [[...data, '--nats', 'http://nats.example'], 'usage_nats'],
      [[...data, '--nats', `nats://u:${PASSWORD}@[bad`], 'usage_nats'],
      [[...data, '--nats-prefix', 'a b'], 'usage_nats_prefix'],
      [[...data, '--log-level', 'loud'], 'usage_error'],
      [[...data, '--max-members', '0'], 'usage_error'],
    ]
    for (const [flags, code] of cases) {
      const result = await serve([...flags, '--json'])
      expectClean(result, 2)
      expect(onlyError(result.stdout).code, flags.join(' ')).toBe(code)
    }
    // The same checks read the env names; a human gets one line on stderr.
    const fromEnv = await serve(data, {MESH_DATABASE_URL: `postgres://mesh:${PASSWORD}@[bad/db`})
    expectClean(fromEnv, 2)
    expect(fromEnv.stderr).toContain('--database-url must be a URL')
    const port = await runCli(['serve', service, '--port', '70000', ...data, '--json'], {env: QUIET})
    expectClean(port, 2)
    expect(onlyError(port.stdout).code).toBe('usage_error')
  })

  it('names the backend that failed to start (PostgreSQL, NATS) without its password, exit 1', async () => {
    const dir = await tempDir()
    const port = await closedPort()
    const postgres = await serve(['--data', join(dir, 'd'), '--database-url', `postgres://mesh:${PASSWORD}@127.0.0.1:${port}/mesh`], {OCLIF_COLUMNS: '1000'})
    expectClean(postgres, 1)
    expect(postgres.stderr).toContain(`PostgreSQL at 127.0.0.1:${port} (--database-url)`)
    const nats = await serve(['--data', join(dir, 'd'), '--nats', `nats://mesh:${PASSWORD}@127.0.0.1:${port}`, '--json'])
    expectClean(nats, 1)
    expect(onlyError(nats.stdout)).toMatchObject({code: `${service}_start_failed`, message: expect.stringContaining(`NATS at 127.0.0.1:${port} (--nats)`)})
  })

  it('says listen_failed when the port is taken', async () => {
    const port = await busyPort()
    const result = await runCli(['serve', service, '--port', String(port), '--data', join(await tempDir(), 'd'), '--json'], {env: QUIET})
    expectClean(result, 1)
    expect(onlyError(result.stdout)).toEqual({code: 'listen_failed', message: `The ${service} could not listen on 127.0.0.1:${port}: port ${port} is already in use; pass another --port (0 picks a free one)`})
  })
})
