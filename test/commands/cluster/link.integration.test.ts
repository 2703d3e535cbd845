/**
 * `mesh cluster link` and `mesh init --link` through the binary (issue 23):
 * a private and a public cluster on a real relay, the adoption of the one this
 * machine made before, a running daemon that follows without a restart, and a
 * hub that cannot be reached or refuses — which writes nothing.
 */
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {createLocalBus} from '../../../src/bus/index.js'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import {createMemoryClusterStore, createRelay} from '../../../src/cluster/index.js'
import {serve, type HostedServer} from '../../../src/http/index.js'
import {publicAddress} from '../../../src/http/listen.js'
import {silentLogger} from '../../../src/lib/log.js'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'

let relay: HostedServer
let stingy: HostedServer
const dirs: string[] = []
let daemon: SpawnedCli | undefined

/** A relay whose public URL is its real address (the `ws` it answers is what the project gets). */
const startRelay = async (limits = {}) => {
  const {port, publicUrl} = await publicAddress({host: '127.0.0.1', port: 0})
  const service = createRelay({store: createMemoryClusterStore(), bus: createLocalBus(), logger: silentLogger, publicUrl, limits})
  return serve({services: [service], logger: silentLogger, port, host: '127.0.0.1'})
}
beforeAll(async () => {
  relay = await startRelay()
  // A relay that allows one creation per address an hour: the second is refused with 429.
  stingy = await startRelay({creationsPerIp: 1})
  await new ClusterClient({relay: stingy.url}).create({visibility: 'private'})
})
afterAll(async () => {
  await relay.stop()
  await stingy.stop()
})
afterEach(async () => {
  await daemon?.stop()
  daemon = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, {recursive: true, force: true})
})

async function freshProject(hub: string): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'mesh-link-'))
  dirs.push(root)
  const init = await runCli(['init', root, '--name', 'Demo', '--id', 'demo', '--hub', hub, '--yes'])
  expect(init.code, init.stderr).toBe(0)
  return root
}

/** Every file of the project with its bytes, to prove a refused link wrote nothing. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else files[path.slice(root.length)] = readFileSync(path, 'utf8')
    }
  }
  walk(root)
  return files
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8')
const link = (root: string, args: string[] = [], cwd = root) => runCli(['cluster', 'link', ...args, '--json'], {cwd})

describe('mesh cluster link', () => {
  it('creates a private cluster, writes the endpoint, the cluster block and the 0600 invite, then adopts it', async () => {
    const root = await freshProject(relay.url)
    mkdirSync(join(root, 'src', 'deep'), {recursive: true})
    // From a subfolder: the project is found upward, and no stray .mesh/ is made there.
    const result = await link(root, [], join(root, 'src', 'deep'))
    expect(result.code, result.stderr).toBe(0)
    const linked = json(result)
    expect(linked).toMatchObject({outcome: 'created', visibility: 'private', via: 'local', hub: relay.url})
    expect(existsSync(join(root, 'src', 'deep', '.mesh'))).toBe(false)

    const endpoint = `ws://127.0.0.1:${relay.port}/v1/clusters/${linked.cluster_id}/ws`
    expect(linked.endpoint).toBe(endpoint)
    expect(parse(read(root, '.mesh/public/cluster.yaml')).transport).toEqual({workflow: 'websocket', endpoint})
    expect(JSON.parse(read(root, 'mesh.json')).cluster).toMatchObject({name: 'Demo', visibility: 'private', admission: 'invite', invite: null})
    const invite = read(root, '.mesh/credentials/invite.url').trim()
    expect(invite).toMatch(new RegExp(`^${endpoint}\\?token=ck_`))
    expect(statSync(join(root, '.mesh/credentials/invite.url')).mode & 0o777).toBe(0o600)
    expect(statSync(join(root, '.mesh/credentials')).mode & 0o777).toBe(0o700)
    // Never committed: credentials/ is on the scaffolded deny-list, and validate finds no secret in committed files.
    expect(read(root, '.gitignore').split('\n')).toContain('.mesh/credentials/')
    const validated = await runCli(['validate', '--json'], {cwd: join(root, 'src')})
    expect(json(validated).findings.filter((f: any) => f.severity === 'error')).toEqual([])
    // The relay admits the invite's token to the private cluster.
    const token = new URL(invite).searchParams.get('token')!
    await expect(new ClusterClient({relay: relay.url}).get(linked.cluster_id, token)).resolves.toMatchObject({cluster_id: linked.cluster_id})

    const again = json(await link(root))
    expect(again).toMatchObject({outcome: 'adopted', cluster_id: linked.cluster_id, endpoint})
    expect(read(root, '.mesh/credentials/invite.url').trim()).toBe(invite)

    // Another visibility cannot be given to the same cluster: refused, nothing written.
    const before = snapshot(root)
    const mismatch = await link(root, ['--visibility', 'public'])
    expect(mismatch.code).toBe(1)
    expect(json(mismatch).error.code).toBe('visibility_mismatch')
    expect(snapshot(root)).toEqual(before)
  })

  it('creates a public cluster: the invite is the public socket, and no invite file is kept', async () => {
    const root = await freshProject(relay.url)
    const linked = json(await link(root, ['--visibility', 'public', '--name', `Open demo ${Date.now()}`]))
    expect(linked).toMatchObject({outcome: 'created', visibility: 'public'})
    expect(JSON.parse(read(root, 'mesh.json')).cluster).toMatchObject({visibility: 'public', admission: 'open', invite: linked.endpoint})
    expect(existsSync(join(root, '.mesh/credentials/invite.url'))).toBe(false)
    await expect(new ClusterClient({relay: relay.url}).get(linked.cluster_id)).resolves.toMatchObject({visibility: 'public'})
  })

  it('makes a new cluster when the one it owned was deleted on the relay', async () => {
    const root = await freshProject(relay.url)
    const first = json(await link(root))
    const owned = JSON.parse(read(root, '.mesh/credentials/cluster.json'))
    await new ClusterClient({relay: relay.url}).delete(first.cluster_id, owned.admin_token)
    const second = json(await link(root))
    expect(second.outcome).toBe('created')
    expect(second.cluster_id).not.toBe(first.cluster_id)
  })

  it('writes nothing when the hub cannot be reached or refuses', async () => {
    const root = await freshProject(relay.url)
    const before = snapshot(root)
    const unreachable = await link(root, ['--hub', 'http://127.0.0.1:1'])
    expect(unreachable.code).toBe(1)
    expect(json(unreachable).error).toMatchObject({code: 'hub_unreachable', message: expect.stringMatching(/Nothing was written\.$/)})
    const refused = await link(root, ['--hub', stingy.url])
    expect(refused.code).toBe(1)
    expect(json(refused).error).toMatchObject({code: 'hub_refused', message: expect.stringMatching(/rate_limited.*Nothing was written\.$/s)})
    expect(snapshot(root)).toEqual(before)
  })

  it('is written by the running daemon, which reconnects to the new cluster without a restart', async () => {
    const root = await freshProject(relay.url)
    daemon = spawnCli(['serve', '--port', '0', '--json'], {cwd: root, env: {MESH_DAEMON_TRANSPORT: ''}})
    const started = JSON.parse(await daemon.waitFor((line) => line.includes('"url"')))
    const url: string = started.url ?? started.daemon?.url
    const health = async () => (await (await fetch(`${url}/health`)).json()) as any
    expect((await health()).transport).toMatchObject({state: 'unlinked'})

    const linked = json(await link(root))
    expect(linked.via).toBe('daemon')
    for (let i = 0; (await health()).transport.state !== 'connected'; i++) {
      if (i > 200) throw new Error(`the daemon never connected: ${JSON.stringify((await health()).transport)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect((await health()).transport).toMatchObject({endpoint: linked.endpoint, using: 'endpoint'})
    expect((await health()).warnings.filter((w: string) => w.startsWith('transport'))).toEqual([])
  })
})

describe('mesh init --link', () => {
  it('scaffolds and links in one command', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mesh-init-link-'))
    dirs.push(root)
    const result = await runCli(['init', root, '--hub', relay.url, '--link', '--yes', '--json'])
    expect(result.code, result.stderr).toBe(0)
    const cluster = json(result).cluster
    expect(cluster).toMatchObject({outcome: 'created', visibility: 'private'})
    expect(parse(read(root, '.mesh/public/cluster.yaml')).transport.endpoint).toBe(cluster.endpoint)
  })
})
