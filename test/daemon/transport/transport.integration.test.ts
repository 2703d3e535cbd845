import {readFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {stringify} from 'yaml'
import {createLocalBus} from '../../../src/bus/index.js'
import {ClusterClient, type ClusterConnection} from '../../../src/client/cluster/client.js'
import {createMemoryClusterStore, createRelay, type ClusterStore} from '../../../src/cluster/index.js'
import type {DaemonContext} from '../../../src/daemon/context.js'
import {createTransportArea, type TransportArea, type TransportAreaOptions} from '../../../src/daemon/transport/index.js'
import {serve, type HostedServer} from '../../../src/http/index.js'
import {silentLogger} from '../../../src/lib/log.js'
import {getValidator} from '../../../src/lib/schemas.js'
import {CLUSTER, makeRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

/** A relay on a given port (0: any) over a store that outlives it, so a restart keeps the clusters. */
async function startRelayOn(store: ClusterStore, port = 0): Promise<HostedServer> {
  const relay = createRelay({store, bus: createLocalBus(), logger: silentLogger, publicUrl: 'http://127.0.0.1'})
  return serve({services: [relay], logger: silentLogger, port})
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Polls until `check` returns a value (not undefined/false); fails naming what never happened. */
async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const FAST: TransportAreaOptions = {env: {}, backoff: {baseMs: 20, maxMs: 200}}

let harness: DaemonHarness | undefined
let area: TransportArea | undefined
const relays: HostedServer[] = []
const peers: ClusterConnection[] = []
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.close()
  for (const peer of peers.splice(0)) peer.close()
  await harness?.close()
  harness = undefined
  area = undefined
  for (const relay of relays.splice(0)) await relay.stop()
})

/** The fixture project with cluster.yaml `transport` replaced, served with the transport area alone. */
async function daemonWith(transport: Record<string, unknown>, options: TransportAreaOptions = FAST, files: Record<string, string> = {}) {
  const repo = makeRepo()
  repo.write('.mesh/public/cluster.yaml', stringify({...CLUSTER, transport}))
  for (const [path, text] of Object.entries(files)) repo.write(path, text)
  harness = await startHarness({repo, areas: [(context: DaemonContext) => (area = createTransportArea(context, options))]})
  return harness
}

const health = async () => (await harness!.call('GET', '/health')).body
const tail = async (tag: string) => (await harness!.call('GET', `/debug/tail?tag=${tag}&last=600`, {auth: true})).body.events as Array<{lvl: string; tag: string; msg: string; data?: any}>
const stateIs = (state: string) => async () => ((await health()).transport.state === state ? true : undefined)

async function subscribe(daemon: DaemonHarness) {
  const ws = new WebSocket(daemon.url.replace('http', 'ws') + '/events', {headers: {authorization: `Bearer ${daemon.token}`}})
  sockets.push(ws)
  const received: Array<{type: string; data: any}> = []
  ws.on('message', (data) => received.push(JSON.parse(String(data))))
  await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject))
  return received
}

describe('the daemon on the project cluster', () => {
  it('joins as a ghost, relays messages to /events, and reconnects after the relay restarts on its port', async () => {
    const store = createMemoryClusterStore()
    const relay = await startRelayOn(store)
    relays.push(relay)
    const client = new ClusterClient({relay: relay.url})
    const {cluster_id} = await client.create({name: 'demo room', visibility: 'public'})
    const endpoint = `ws://127.0.0.1:${relay.port}/v1/clusters/${cluster_id}/ws`
    await daemonWith({workflow: 'websocket', endpoint})

    await until('the daemon connected', stateIs('connected'))
    const shown = (await health()).transport
    expect(shown).toMatchObject({state: 'connected', endpoint, handle: 'daemon:demo', attempt: 0})
    expect(Date.parse(shown.since)).not.toBeNaN()
    expect(getValidator('daemon-health')(await health())).toBe(true)
    expect(await tail('transport.connect')).toEqual([expect.objectContaining({lvl: 'info', msg: `connected to ${endpoint} as daemon:demo (ghost)`})])

    // A ghost: not in the roster peers see.
    const bob = client.connection(cluster_id, {agent: 'bob'})
    peers.push(bob)
    const ready = await bob.connect()
    expect(ready.online).toEqual(['bob'])

    const received = await subscribe(harness!)
    bob.broadcast({text: 'hello project'})
    const heard = await until('the message on /events', () => received.find((event) => event.type === 'transport.message'))
    expect(heard.data).toEqual({from: 'bob', to: null, payload: {text: 'hello project'}, ts: expect.any(String)})
    bob.close()

    // The relay goes away: one transport.reconnect line per attempt, the first a warning.
    const port = relay.port
    await relay.stop()
    relays.splice(relays.indexOf(relay), 1)
    const attempts = await until('three reconnect attempts', async () => {
      const lines = await tail('transport.reconnect')
      return lines.length >= 3 ? lines : undefined
    })
    expect(attempts[0]).toMatchObject({lvl: 'warn', msg: expect.stringMatching(new RegExp(`^connection to ${endpoint} lost .*; retry 1 in \\d+ ms$`))})
    expect(attempts.map((line) => line.data.attempt)).toEqual(attempts.map((_, i) => i + 1))
    for (const line of attempts) expect(line.data.delay_ms).toBeLessThanOrEqual(200)
    expect((await health()).transport).toMatchObject({state: 'reconnecting', endpoint})

    // Back on the same port with the same clusters: connected again, said once.
    relays.push(await startRelayOn(store, port))
    await until('the daemon reconnected', stateIs('connected'))
    const lines = await tail('transport.reconnect')
    expect(lines.at(-1)).toMatchObject({lvl: 'info', msg: expect.stringMatching(/^reconnected to .* after \d+ retr(y|ies)$/)})
    expect(await tail('transport.connect')).toHaveLength(1)
    expect((await health()).warnings).toEqual([])

    // And it hears the room again.
    const carol = new ClusterClient({relay: relays.at(-1)!.url}).connection(cluster_id, {agent: 'carol'})
    peers.push(carol)
    await carol.connect()
    carol.broadcast('again')
    await until('the second message', () => received.find((event) => event.type === 'transport.message' && event.data.payload === 'again'))
  })

  it('joins a private cluster with the token of credentials/invite.url and never writes the token down', async () => {
    const store = createMemoryClusterStore()
    const relay = await startRelayOn(store)
    relays.push(relay)
    const client = new ClusterClient({relay: relay.url})
    const {cluster_id, token} = await client.create({name: 'private room'})
    const endpoint = `ws://127.0.0.1:${relay.port}/v1/clusters/${cluster_id}/ws`
    await daemonWith({workflow: 'websocket', endpoint}, FAST, {'.mesh/credentials/invite.url': `https://hub.example.com/join/${cluster_id}?token=${token}\n`})
    await until('the daemon connected', stateIs('connected'))

    const received = await subscribe(harness!)
    const ada = client.connection(cluster_id, {agent: 'ada', token})
    peers.push(ada)
    await ada.connect()
    ada.direct('daemon:demo', {text: 'for the daemon'})
    const heard = await until('the direct message', () => received.find((event) => event.type === 'transport.message'))
    expect(heard.data).toMatchObject({from: 'ada', to: 'daemon:demo', payload: {text: 'for the daemon'}})

    // Errors carrying the socket URL go through the stream while the relay is away.
    await relay.stop()
    relays.splice(0)
    await until('reconnect attempts', async () => ((await tail('transport.reconnect')).length >= 2 ? true : undefined))
    await harness!.running.daemon.context.debug.flush()
    const written = readFileSync(join(harness!.repo.root, '.mesh/.runtime/debug.jsonl'), 'utf8')
    expect(written).toContain('transport.reconnect')
    expect(written).not.toContain(token)
    expect(written).not.toMatch(/vis=ghost|agent=|token=/)
    expect(JSON.stringify(await health())).not.toContain(token)
  })

  it('stops for good, with a warning, when the token is refused or the cluster is deleted', async () => {
    const store = createMemoryClusterStore()
    const relay = await startRelayOn(store)
    relays.push(relay)
    const client = new ClusterClient({relay: relay.url})
    const {cluster_id} = await client.create({name: 'locked'})
    const endpoint = `ws://127.0.0.1:${relay.port}/v1/clusters/${cluster_id}/ws`
    await daemonWith({workflow: 'websocket', endpoint}, FAST, {'.mesh/credentials/invite.url': 'https://hub.example.com/join?token=ck_wrong_secret_value'})
    await until('the refusal', stateIs('failed'))
    const failed = await tail('transport.failed')
    expect(failed).toEqual([expect.objectContaining({lvl: 'error', msg: expect.stringMatching(/refused the daemon: .*401/)})])
    expect((await health()).warnings).toEqual([expect.stringMatching(/^transport: the relay at .* refused the daemon; last error: .*401/)])
    expect(await tail('transport.reconnect')).toEqual([])
    await harness!.running.daemon.context.debug.flush()
    expect(readFileSync(join(harness!.repo.root, '.mesh/.runtime/debug.jsonl'), 'utf8')).not.toContain('ck_wrong_secret_value')
    await harness!.close()
    harness = undefined

    const open = await client.create({name: 'doomed', visibility: 'public'})
    await daemonWith({workflow: 'websocket', endpoint: `ws://127.0.0.1:${relay.port}/v1/clusters/${open.cluster_id}/ws`})
    await until('the daemon connected', stateIs('connected'))
    await client.delete(open.cluster_id, open.admin_token)
    await until('the deletion', stateIs('deleted'))
    expect(await tail('transport.closed')).toEqual([expect.objectContaining({lvl: 'warn', msg: expect.stringMatching(/was deleted on the relay/)})])
    expect((await health()).warnings).toEqual([expect.stringMatching(/^transport: cluster c_\S+ was deleted/)])
  })

  it('keeps trying an unreachable endpoint, one line per attempt, and warns in /health past the threshold', async () => {
    let now = Date.parse('2026-01-05T10:00:00Z')
    const port = await closedPort()
    const endpoint = `ws://127.0.0.1:${port}/v1/clusters/c_nowhere/ws`
    await daemonWith({endpoint}, {...FAST, now: () => now})

    const lines = await until('four attempts', async () => {
      const found = await tail('transport.reconnect')
      return found.length >= 4 ? found : undefined
    })
    expect(lines[0]).toMatchObject({lvl: 'info', msg: expect.stringMatching(new RegExp(`^connect to ${endpoint} failed \\(.*ECONNREFUSED.*\\); retry 1 in \\d+ ms$`))})
    expect(lines.slice(0, 4).map((line) => line.data.attempt)).toEqual([1, 2, 3, 4])
    expect(await tail('transport.connect')).toEqual([])
    let answer = await health()
    expect(answer.transport).toMatchObject({state: 'connecting', endpoint, since: '2026-01-05T10:00:00.000Z'})
    expect(answer.warnings).toEqual([])

    now += 61_000
    answer = await health()
    expect(answer.ok).toBe(true)
    expect(getValidator('daemon-health')(answer)).toBe(true)
    expect(answer.warnings).toEqual([expect.stringMatching(new RegExp(`^transport: not connected to ${endpoint} for 61 s \\(retry \\d+; last error: .*ECONNREFUSED`))])
  })

  it('says once why it does not connect, and follows cluster.yaml when it changes', async () => {
    const store = createMemoryClusterStore()
    const relay = await startRelayOn(store)
    relays.push(relay)
    const {cluster_id} = await new ClusterClient({relay: relay.url}).create({name: 'later', visibility: 'public'})
    const daemon = await daemonWith({workflow: 'sse', endpoint: 'https://hub.example.com/v1/events'})
    expect((await health()).transport).toMatchObject({state: 'skipped', endpoint: 'https://hub.example.com/v1/events', reason: expect.stringMatching(/workflow is sse/)})
    expect(await tail('transport.skipped')).toEqual([expect.objectContaining({lvl: 'info', msg: expect.stringMatching(/workflow is sse/)})])

    // An unrelated change says nothing again; a new transport is followed.
    daemon.running.daemon.context.events.publish('cluster.updated', {})
    await area!.settled()
    expect(await tail('transport.skipped')).toHaveLength(1)
    const endpoint = `http://127.0.0.1:${relay.port}/v1/clusters/${cluster_id}/ws`
    daemon.repo.write('.mesh/public/cluster.yaml', stringify({...CLUSTER, transport: {workflow: 'websocket', endpoint}}))
    daemon.running.daemon.context.events.publish('cluster.updated', {})
    await area!.settled()
    await until('the daemon connected', stateIs('connected'))
    expect((await health()).transport.endpoint).toBe(endpoint.replace('http:', 'ws:'))
  })

  it('stays off with MESH_DAEMON_TRANSPORT=off', async () => {
    await daemonWith({endpoint: 'wss://hub.example.com/v1/clusters/demo/ws'}, {env: {MESH_DAEMON_TRANSPORT: 'off'}})
    expect((await health()).transport).toMatchObject({state: 'off', endpoint: 'wss://hub.example.com/v1/clusters/demo/ws'})
    expect(await tail('transport.skipped')).toEqual([expect.objectContaining({msg: expect.stringMatching(/MESH_DAEMON_TRANSPORT=off/)})])
    expect(await tail('transport.reconnect')).toEqual([])
  })
})
