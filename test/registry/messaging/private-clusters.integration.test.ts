/**
 * Private clusters stay private on the registry's paths into them (DECISIONS:
 * Private clusters; Registry: Legacy routes). The legacy channel route
 * `POST /agents/channels/<cluster_id>/send` and its `/v1` twin broadcast on
 * a private cluster only with its `ck_` (or `ak_`) token, in `x-cluster-token`
 * or `?token=`; without it, or with a wrong one, they answer exactly what an
 * unknown cluster gets (404 unknown_channel), so a private id cannot be
 * probed. The agent WebSocket has no frame that reaches a cluster, and a
 * refused send puts nothing on the bus. Run on the whole `mesh serve
 * registry` (registry and relay on one database and bus), on SQLite with the
 * in-process bus and on PostgreSQL with NATS.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join as joinPath} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {newClusterId} from '../../../src/cluster/tokens.js'
import {serve, type HostedServer} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer} from '../../../src/registry/compose.js'
import {dropSchema, recordNats, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../../support/backends.js'
import {api, createCluster, join, type Client, type Created} from '../../cluster/helpers.js'
import {FrameClient} from './harness.js'

interface Setup {
  store: 'sqlite' | 'postgres'
  /** With NATS, a spy on every subject of the deployment sees what the node publishes. */
  nats: boolean
}

interface Registry {
  url: string
  /** Every bus message of the deployment, as text (NATS runs only). */
  published: string[]
  /** Registers an agent and returns its JWT. */
  agent(agentId: string): Promise<string>
  close(): Promise<void>
}

async function startRegistry(setup: Setup): Promise<Registry> {
  const dataDir = await mkdtemp(joinPath(tmpdir(), 'mesh-private-'))
  const schema = uniqueSchema('private')
  const natsPrefix = uniqueNatsPrefix()
  const server: RegistryServer = await buildRegistryServer({
    dataDir,
    publicUrl: 'https://registry.example',
    logger: silentLogger,
    ...(setup.store === 'postgres' ? {databaseUrl: PG_URL, databaseSchema: schema} : {}),
    ...(setup.nats ? {natsUrl: NATS_URL, natsPrefix} : {}),
  })
  const hosted: HostedServer = await serve({services: server.services, logger: silentLogger, port: 0})
  const spy = setup.nats ? await recordNats(natsPrefix) : undefined
  const published = spy?.published ?? []
  return {
    url: hosted.url,
    published,
    async agent(agentId) {
      const res = await api(hosted.url, 'POST', '/v1/agents/register', {agent_id: agentId})
      if (res.status !== 201) throw new Error(`register ${agentId}: ${res.status} ${JSON.stringify(res.body)}`)
      return (res.body as {token: string}).token
    },
    async close() {
      await spy?.close()
      await hosted.stop()
      await server.close()
      if (setup.store === 'postgres') await dropSchema(schema)
      await rm(dataDir, {recursive: true, force: true})
    },
  }
}

const SETUPS: Setup[] = [
  {store: 'sqlite', nats: false},
  {store: 'postgres', nats: true},
]

for (const setup of SETUPS) {
  describe(`private clusters through the registry (${setup.store}${setup.nats ? ' + NATS' : ''})`, () => {
    let registry: Registry
    let jwt: string
    let secret: Created
    let other: Created
    let open: Created
    let watcher: Client
    let publicWatcher: Client
    beforeAll(async () => {
      registry = await startRegistry(setup)
      jwt = await registry.agent('ann')
      secret = await createCluster(registry.url, {name: 'Back room'})
      other = await createCluster(registry.url, {name: 'Other room'})
      open = await createCluster(registry.url, {name: 'Town square', visibility: 'public'})
      watcher = await join(registry.url, secret.cluster_id, {agent: 'watcher', token: secret.token})
      publicWatcher = await join(registry.url, open.cluster_id, {agent: 'listener'})
    })
    afterAll(async () => {
      watcher?.ws.terminate()
      publicWatcher?.ws.terminate()
      await registry?.close()
    })

    const send = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
      api(registry.url, 'POST', path, {payload}, {authorization: `Bearer ${jwt}`, ...headers})

    /** What a channel send answers, with the cluster id taken out so two ids can be compared. */
    const shapeOf = (answer: {status: number; body: unknown}, clusterId: string) => ({
      status: answer.status,
      body: JSON.parse(JSON.stringify(answer.body).replaceAll(clusterId, '<id>')) as unknown,
    })

    it('refuses a private cluster without its token exactly as an unknown one, on the legacy path and its /v1 twin', async () => {
      const unknownId = newClusterId()
      for (const prefix of ['', '/v1']) {
        const unknown = shapeOf(await send(`${prefix}/agents/channels/${unknownId}/send`, 'probe'), unknownId)
        expect(unknown).toEqual({
          status: 404,
          body: {error: {code: 'unknown_channel', message: 'No channel <id>: a channel id is a cluster id'}},
        })
        const path = `${prefix}/agents/channels/${secret.cluster_id}/send`
        const refused = [
          await send(path, 'refused: no token'),
          await send(path, 'refused: wrong token', {'x-cluster-token': 'ck_not-this-one'}),
          await send(`${path}?token=ck_not-this-one`, 'refused: wrong query token'),
          await send(path, "refused: another cluster's ck_", {'x-cluster-token': other.token}),
          await send(path, "refused: another cluster's ak_", {'x-cluster-token': other.admin_token}),
          // A public cluster's token is no key to a private one either.
          await send(`${path}?token=${open.token}`, "refused: a public cluster's ck_"),
        ]
        for (const answer of refused) expect(shapeOf(answer, secret.cluster_id)).toEqual(unknown)
      }
    })

    it('has no agent-socket frame that reaches a cluster: a cluster id is no agent', async () => {
      const socket = await FrameClient.connect(`${registry.url.replace(/^http/, 'ws')}/v1/agents/ws?token=${jwt}`)
      try {
        socket.send({msg_type: 'connect_to', to: secret.cluster_id, ref: 1})
        expect(await socket.next('error')).toEqual({type: 'error', code: 'unknown_peer', message: `unknown_peer: no agent ${secret.cluster_id} is registered`, ref: 1})
        socket.send({msg_type: 'message', to: secret.cluster_id, payload: 'refused: agent socket', ref: 2})
        expect(await socket.next('error')).toMatchObject({code: 'unknown_peer', ref: 2})
        // An agent registered under a cluster's id is just an agent: the message waits in its inbox.
        await registry.agent(other.cluster_id)
        socket.send({msg_type: 'message', to: other.cluster_id, payload: 'to the agent, not the cluster', ref: 3})
        expect(await socket.next()).toMatchObject({type: 'queued', to: other.cluster_id, via: 'inbox', ref: 3})
      } finally {
        await socket.close()
      }
    })

    it('broadcasts on a private cluster with its ck_ token (header or ?token=) or its ak_ token', async () => {
      const path = `/agents/channels/${secret.cluster_id}/send`
      expect((await send(path, 'with ck_ header', {'x-cluster-token': secret.token})).body).toEqual({ok: true, delivered: 1})
      expect((await send(`/v1${path}?token=${encodeURIComponent(secret.token)}`, 'with ck_ query')).body).toEqual({ok: true, delivered: 1})
      // DECISIONS: Private clusters — as on the board routes, the admin token opens what the ck_ token opens.
      expect((await send(path, 'with ak_ header', {'x-cluster-token': secret.admin_token})).body).toEqual({ok: true, delivered: 1})
      await watcher.next((f) => f.type === 'message' && f.payload === 'with ak_ header')
      // In order on the wall: nothing the tests above refused (channel route, agent socket) reached it first.
      expect(watcher.ofType('message').map((f) => [f.from, f.payload])).toEqual([
        ['ann', 'with ck_ header'],
        ['ann', 'with ck_ query'],
        ['ann', 'with ak_ header'],
      ])
    })

    it('keeps a public cluster open to any agent, a wrong token counting as none', async () => {
      const path = `/agents/channels/${open.cluster_id}/send`
      expect((await send(path, 'public, no token')).body).toEqual({ok: true, delivered: 1})
      expect((await send(path, 'public, wrong token', {'x-cluster-token': 'ck_whatever'})).body).toEqual({ok: true, delivered: 1})
      await publicWatcher.next((f) => f.type === 'message' && f.payload === 'public, wrong token')
      expect(publicWatcher.ofType('message').map((f) => f.payload)).toEqual(['public, no token', 'public, wrong token'])
      // A channel id is a cluster id: the slug names no channel.
      expect((await send(`/agents/channels/${open.slug}/send`, 'by slug')).status).toBe(404)
    })

    if (setup.nats) {
      it('puts nothing of a refused send on the bus: the node publishes on a cluster subject only once the token opened it', async () => {
        const path = `/agents/channels/${secret.cluster_id}/send`
        await send(path, 'refused: bus check')
        await send(path, 'refused: bus check', {'x-cluster-token': other.token})
        await send(path, 'accepted: bus check', {'x-cluster-token': secret.token})
        // One publisher connection, so its messages reach the spy in order: the accepted one comes after any refused.
        await expect.poll(() => registry.published.some((m) => m.includes('accepted: bus check'))).toBe(true)
        expect(registry.published.filter((m) => m.includes('refused'))).toEqual([])
        const accepted = registry.published.filter((m) => m.includes('accepted: bus check'))
        expect(accepted.map((m) => m.slice(0, m.indexOf(' ')))).toEqual([`cluster.${secret.cluster_id}`])
      })
    }
  })
}
