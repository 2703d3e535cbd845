/** `--json`: one NDJSON event per line from start to stop, with the same keys for both servers. */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, describe, expect, it} from 'vitest'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../../support/backends.js'
import {SERVICES, startServer, type RunningServer} from '../../support/cli.js'

const running: RunningServer[] = []
const dirs: string[] = []
const schemas: string[] = []
afterEach(async () => {
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema)
})

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-events-'))
  dirs.push(dir)
  return dir
}

const LISTENING_KEYS = ['event', 'service', 'url', 'port', 'public_url', 'storage', 'data', 'bus', 'proxy']

/** Starts with --json, stops with `signal`, and returns every stdout line parsed. */
async function startAndStop(service: (typeof SERVICES)[number], args: string[], signal: NodeJS.Signals) {
  const server = await startServer(service, ['--port', '0', '--json', ...args])
  running.push(server)
  // The server answers once the event is out.
  expect((await fetch(`${server.url}/v1/clusters`)).status).toBe(200)
  server.child.kill(signal)
  expect(await server.exited).toBe(0)
  return server.lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe.each(SERVICES)('mesh serve %s --json', (service) => {
  it('prints "listening" then "stopped", one JSON object per line, nothing else', async () => {
    const data = join(await tempDir(), 'data')
    const events = await startAndStop(service, ['--data', data], 'SIGTERM')
    expect(events).toHaveLength(2)
    const [listening, stopped] = events
    expect(Object.keys(listening).sort()).toEqual([...LISTENING_KEYS].sort())
    const port = Number(new URL(listening.url as string).port)
    expect(listening).toEqual({
      event: 'listening',
      service,
      url: `http://127.0.0.1:${port}`,
      port,
      public_url: `http://127.0.0.1:${port}`,
      storage: 'sqlite',
      data,
      bus: 'local',
      proxy: false,
    })
    expect(stopped).toEqual({event: 'stopped', service, signal: 'SIGTERM'})
  })

  it('names PostgreSQL and NATS, and the proxy, in the same keys', async () => {
    const schema = uniqueSchema('serve')
    schemas.push(schema)
    const args = ['--data', join(await tempDir(), 'data'), '--database-url', PG_URL, '--database-schema', schema, '--nats', NATS_URL, '--nats-prefix', uniqueNatsPrefix(), '--proxy', '--public-url', 'https://mesh.example/']
    const [listening, stopped] = await startAndStop(service, args, 'SIGINT')
    expect(Object.keys(listening).sort()).toEqual([...LISTENING_KEYS].sort())
    expect(listening).toMatchObject({event: 'listening', service, public_url: 'https://mesh.example', storage: 'postgres', bus: 'nats', proxy: true})
    expect(stopped).toEqual({event: 'stopped', service, signal: 'SIGINT'})
  })
})
