/**
 * The daemon's side of a project's link to its cluster (issue 23): a project
 * not linked is one calm /health line, `POST /cluster/link` writes the link
 * and the transport follows it without a restart, and `transport.fallback`
 * is tried when the endpoint fails.
 */
import {existsSync, readFileSync, statSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parse, stringify} from 'yaml'
import {createLocalBus} from '../../../src/bus/index.js'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import {createMemoryClusterStore, createRelay} from '../../../src/cluster/index.js'
import type {DaemonContext} from '../../../src/daemon/context.js'
import {networkArea} from '../../../src/daemon/network/index.js'
import {createTransportArea, type TransportAreaOptions} from '../../../src/daemon/transport/index.js'
import {serve, type HostedServer} from '../../../src/http/index.js'
import {silentLogger} from '../../../src/lib/log.js'
import {CLUSTER, makeRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const FAST: TransportAreaOptions = {env: {}, backoff: {baseMs: 20, maxMs: 100}}

let harness: DaemonHarness | undefined
const relays: HostedServer[] = []
afterEach(async () => {
  await harness?.close()
  harness = undefined
  for (const relay of relays.splice(0)) await relay.stop()
})

async function startRelay(): Promise<HostedServer> {
  const relay = createRelay({store: createMemoryClusterStore(), bus: createLocalBus(), logger: silentLogger, publicUrl: 'http://127.0.0.1'})
  const hosted = await serve({services: [relay], logger: silentLogger, port: 0})
  relays.push(hosted)
  return hosted
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs = 10_000): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The fixture project with cluster.yaml `transport` replaced, served with the network and transport areas. */
async function daemonWith(transport: Record<string, unknown>) {
  const repo = makeRepo()
  repo.write('.mesh/public/cluster.yaml', `# kept comment\n${stringify({...CLUSTER, transport})}`)
  harness = await startHarness({repo, areas: [networkArea, (context: DaemonContext) => createTransportArea(context, FAST)]})
  return harness
}
const health = async () => (await harness!.call('GET', '/health')).body
const connectedTo = (endpoint: string) => async () => {
  const transport = (await health()).transport
  return transport.state === 'connected' && transport.endpoint === endpoint ? transport : undefined
}

describe('a project and its cluster, in the daemon', () => {
  it('says "not linked" in one calm line, with no warning, for the endpoint mesh init writes', async () => {
    await daemonWith({workflow: 'websocket', endpoint: 'wss://hub.example.com/v1/clusters/demo/ws'})
    const answer = await health()
    expect(answer.transport).toMatchObject({state: 'unlinked', reason: 'not linked: `mesh cluster link`'})
    expect(answer.warnings).toEqual([])
  })

  it('writes a private link through POST /cluster/link and reconnects to it without a restart', async () => {
    const relay = await startRelay()
    const created = await new ClusterClient({relay: relay.url}).create({name: 'Demo', visibility: 'private'})
    const daemon = await daemonWith({workflow: 'websocket', endpoint: 'wss://hub.example.com/v1/clusters/demo/ws'})
    const endpoint = `ws://127.0.0.1:${relay.port}/v1/clusters/${created.cluster_id}/ws`
    const body = {cluster_id: created.cluster_id, endpoint, visibility: 'private', name: 'Demo', hub: relay.url, token: created.token, admin_token: created.admin_token}
    expect((await daemon.call('POST', '/cluster/link', {body: JSON.stringify(body)})).status).toBe(401)
    const linked = await daemon.call('POST', '/cluster/link', {auth: true, body: JSON.stringify(body)})
    expect(linked.status).toBe(200)
    expect(linked.body).toMatchObject({cluster_id: created.cluster_id, written: ['credentials/cluster.json', 'credentials/invite.url', '../mesh.json', 'public/cluster.yaml']})
    // The private cluster admits the daemon only with the invite's token: connected means it was read.
    expect(await until('connected to the new cluster', connectedTo(endpoint))).toMatchObject({using: 'endpoint'})

    const root = daemon.repo.root
    const clusterYaml = readFileSync(join(root, '.mesh/public/cluster.yaml'), 'utf8')
    expect(clusterYaml).toContain('# kept comment')
    expect(parse(clusterYaml).transport).toEqual({workflow: 'websocket', endpoint})
    const bootstrap = JSON.parse(readFileSync(join(root, 'mesh.json'), 'utf8'))
    expect(bootstrap.cluster).toMatchObject({name: 'Demo', visibility: 'private', admission: 'invite', invite: null, channel_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)})
    expect(bootstrap.hub.url).toBe(relay.url)
    for (const secret of ['invite.url', 'cluster.json']) expect(statSync(join(root, '.mesh/credentials', secret)).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(root, '.mesh/credentials/invite.url'), 'utf8').trim()).toBe(`${endpoint}?token=${created.token}`)
    // No secret in committed files, in the event or in the debug stream.
    const tail = JSON.stringify((await daemon.call('GET', '/debug/tail?last=600', {auth: true})).body)
    for (const text of [clusterYaml, JSON.stringify(bootstrap), tail]) {
      expect(text).not.toContain(created.token)
      expect(text).not.toContain(created.admin_token)
    }
    expect((await health()).warnings).toEqual([])
  })

  it('removes a stale invite when the project is linked to a public cluster', async () => {
    const relay = await startRelay()
    const created = await new ClusterClient({relay: relay.url}).create({name: 'Open demo', visibility: 'public'})
    const daemon = await daemonWith({workflow: 'websocket', endpoint: 'wss://hub.example.com/v1/clusters/demo/ws'})
    daemon.repo.write('.mesh/credentials/invite.url', 'wss://old.example/v1/clusters/c_old/ws?token=ck_old\n')
    const endpoint = `ws://127.0.0.1:${relay.port}/v1/clusters/${created.cluster_id}/ws`
    const body = {cluster_id: created.cluster_id, endpoint, visibility: 'public', name: 'Open demo', hub: relay.url, token: created.token, admin_token: created.admin_token}
    const linked = await daemon.call('POST', '/cluster/link', {auth: true, body: JSON.stringify(body)})
    expect(linked.body.removed).toEqual(['credentials/invite.url'])
    expect(existsSync(join(daemon.repo.root, '.mesh/credentials/invite.url'))).toBe(false)
    expect(JSON.parse(readFileSync(join(daemon.repo.root, 'mesh.json'), 'utf8')).cluster).toMatchObject({visibility: 'public', admission: 'open', invite: endpoint})
    await until('connected to the public cluster', connectedTo(endpoint))
  })

  it('refuses a body that is not a link, and writes nothing', async () => {
    const daemon = await daemonWith({workflow: 'websocket', endpoint: 'wss://hub.example.com/v1/clusters/demo/ws'})
    const before = readFileSync(join(daemon.repo.root, 'mesh.json'), 'utf8')
    const refused = await daemon.call('POST', '/cluster/link', {auth: true, body: JSON.stringify({cluster_id: 'demo', endpoint: 'wss://x/ws?token=ck_a'})})
    expect(refused.status).toBe(400)
    expect(readFileSync(join(daemon.repo.root, 'mesh.json'), 'utf8')).toBe(before)
    expect(existsSync(join(daemon.repo.root, '.mesh/credentials/cluster.json'))).toBe(false)
  })

  it('tries transport.fallback when the endpoint cannot be reached, and when it refuses the daemon', async () => {
    const relay = await startRelay()
    const client = new ClusterClient({relay: relay.url})
    const open = await client.create({visibility: 'public', name: 'fallback room'})
    const fallback = `ws://127.0.0.1:${relay.port}/v1/clusters/${open.cluster_id}/ws`
    const daemon = await daemonWith({workflow: 'websocket', endpoint: `ws://127.0.0.1:${await closedPort()}/v1/clusters/${open.cluster_id}/ws`, fallback})
    expect(await until('connected through the fallback', connectedTo(fallback))).toMatchObject({using: 'fallback'})
    const lines = (await daemon.call('GET', '/debug/tail?tag=transport.fallback&last=50', {auth: true})).body.events
    expect(lines[0].msg).toMatch(/failed 3 times in a row; trying transport.fallback/)
    await harness!.close()

    // A private cluster without its token refuses at once (401): the fallback is tried without waiting for retries.
    const closed = await client.create({visibility: 'private'})
    await daemonWith({workflow: 'websocket', endpoint: `ws://127.0.0.1:${relay.port}/v1/clusters/${closed.cluster_id}/ws`, fallback})
    expect(await until('connected through the fallback after a refusal', connectedTo(fallback))).toMatchObject({using: 'fallback'})
  })
})
