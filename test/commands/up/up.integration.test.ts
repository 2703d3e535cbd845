import {existsSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {spawnCli, type SpawnedCli} from '../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

let repo: FixtureRepo | undefined
let network: SpawnedCli | undefined
afterEach(async () => {
  await network?.stop()
  network = undefined
  repo?.cleanup()
  repo = undefined
})

const withDirectory = () =>
  makeRepo({
    'mesh.json': JSON.stringify({mesh_version: 1, hub: {url: 'https://hub.example.com', docs: 'https://hub.example.com/docs'}, directory: {agent_id: 'demo-directory', description: 'The demo project', capabilities: ['docs', 'planning']}}),
  })

async function upEvent(cli: SpawnedCli) {
  const line = await cli.waitFor((l) => l.includes('"event":"up"'))
  return JSON.parse(line)
}

describe('mesh up', () => {
  it('runs the daemon, a registry with its relay and the directory agent online, and stops them all', async () => {
    repo = withDirectory()
    network = spawnCli(['up', '--registry-port', '0', '--daemon-port', '0', '--json'], {cwd: repo.root})
    const up = await upEvent(network)
    expect(up.agent).toEqual({agent_id: 'demo-directory', registered: 'new'})
    expect(((await (await fetch(`${up.daemon.url}/health`)).json()) as any).cluster_id).toBe('demo')
    expect((await fetch(`${up.registry.url}/health`)).status).toBe(200)
    const record = (await (await fetch(`${up.registry.url}/v1/agents/demo-directory`)).json()) as any
    expect(record.online).toBe(true)
    expect(record.capabilities).toEqual(['docs', 'planning'])
    const created = await fetch(`${up.registry.url}/v1/clusters`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({name: 'team room', visibility: 'public'})})
    expect(created.status).toBe(201)
    expect(statSync(join(repo.root, '.mesh/.runtime/network/directory-agent.json')).mode & 0o777).toBe(0o600)

    expect(await network.stop('SIGINT')).toBe(0)
    network = undefined
    expect(existsSync(join(repo.root, '.mesh/.runtime/daemon.json'))).toBe(false)
    await expect(fetch(`${up.registry.url}/health`)).rejects.toThrow()

    // A second run keeps the registry's data and the agent's key.
    network = spawnCli(['up', '--registry-port', '0', '--daemon-port', '0', '--json'], {cwd: repo.root})
    const again = await upEvent(network)
    expect(again.agent).toEqual({agent_id: 'demo-directory', registered: 'known'})
  })

  it('runs without a directory block and refuses a second network in the same project', async () => {
    repo = makeRepo()
    network = spawnCli(['up', '--registry-port', '0', '--daemon-port', '0', '--json'], {cwd: repo.root})
    const up = await upEvent(network)
    expect(up.agent).toBeNull()
    const second = spawnCli(['up', '--registry-port', '0', '--daemon-port', '0', '--json'], {cwd: repo.root})
    expect(JSON.parse(await second.nextLine()).error.code).toBe('daemon_running')
    expect(await second.exited).toBe(1)
  })
})
