/**
 * mesh agent as a user runs it against a real `mesh serve registry`, with
 * credentials left by the real `mesh register`. Spawns the built CLI.
 */
import {once} from 'node:events'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli, spawnCli, startServer, type RunningServer, type SpawnedCli} from '../../support/cli.js'

// Never touch a developer's real keychain from tests.
const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}
const running: RunningServer[] = []
const children: SpawnedCli[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const child of children.splice(0)) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL')
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function workspace() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-cli-'))
  dirs.push(dir)
  const card = join(dir, 'card.json')
  await writeFile(card, JSON.stringify({name: 'Alpha Translator', description: 'Translates.', tags: ['translate'], category: 'language.translation', availability: {now: true}}))
  return {dir, card, creds: join(dir, 'creds'), data: join(dir, 'data')}
}
async function freePort() {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const {port} = server.address() as {port: number}
  server.close()
  return port
}
async function serveOn(data: string, port?: number) {
  const server = await startServer('registry', ['--data', data, ...(port ? ['--port', String(port)] : [])])
  running.push(server)
  return server
}
const cli = (args: string[]) => runCli(args, {env: ENV})

describe('mesh agent', () => {
  it('fails clearly: bad card, unknown agent, unreachable registry', async () => {
    const w = await workspace()
    await writeFile(join(w.dir, 'bad.json'), JSON.stringify({name: 'x', description: 'y'.repeat(501)}))
    const badCard = await cli(['agent', 'up', '--card', join(w.dir, 'bad.json'), '--credentials', w.creds, '--json'])
    expect(badCard.code).toBe(1)
    expect(JSON.parse(badCard.stdout).error).toMatchObject({code: 'invalid_card', field: 'description'})
    const noAgent = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds])
    expect(noAgent.code).toBe(2)
    expect(noAgent.stderr).toContain('mesh register')
    const port = await freePort()
    const unreachable = await cli(['agent', 'show', 'alpha', '--registry', `http://127.0.0.1:${port}`])
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain('Cannot reach the registry')
    expect(unreachable.stderr).not.toContain('    at ')
    const server = await serveOn(w.data)
    const missing = await cli(['agent', 'show', 'ghost', '--registry', server.url, '--json'])
    expect(JSON.parse(missing.stdout).error.code).toBe('agent_not_found')
  })

  it('agent up survives a registry restart and stops cleanly on SIGINT', async () => {
    const w = await workspace()
    const port = await freePort()
    const first = await serveOn(w.data, port)
    await cli(['register', 'alpha', '--registry', first.url, '--credentials', w.creds])
    const agent = spawnCli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--interval', '5'], {env: ENV})
    children.push(agent)
    const events = () => agent.lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const waitFor = async (predicate: (e: Record<string, unknown>) => boolean) => {
      while (!events().some(predicate)) await agent.nextLine()
    }
    await waitFor((e) => e.event === 'heartbeat')
    first.child.kill('SIGKILL')
    await first.exited
    await waitFor((e) => e.event === 'retry')
    await serveOn(w.data, port)
    await waitFor((e) => e.event === 'heartbeat' && (e.beat as number) >= 2)
    expect(await agent.stop('SIGINT')).toBe(0)
    expect(events().at(-1)).toMatchObject({event: 'stopped'})
    expect(events().find((e) => e.event === 'retry')).toMatchObject({error: {code: 'registry_unreachable'}})
  })
})
