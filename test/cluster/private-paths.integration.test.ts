/**
 * Private clusters on every path of the relay (DECISIONS: Private clusters;
 * spec: Authentication, Errors), pinned in one place: detail by id and slug,
 * catalog, PATCH, DELETE, boards and posts (read, pin, delete), the member
 * socket, the server-side broadcast the registry's channel route uses,
 * hashtags, and the bus. Without the cluster's own token (none, a wrong one,
 * another cluster's, a public cluster's) nothing is read, written or sent,
 * and every read path answers what an unknown cluster gets. Run on SQLite
 * with the in-process bus and on PostgreSQL with NATS.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join as joinPath} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {startRelayServer, type RunningRelay} from '../../src/cluster/server.js'
import {newClusterId} from '../../src/cluster/tokens.js'
import {isMeshError} from '../../src/lib/errors.js'
import {silentLogger} from '../../src/lib/log.js'
import {dropSchema, recordNats, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from '../support/backends.js'
import {api, Client, createCluster, join, refusal, wsUrl, type Created} from './helpers.js'

interface Setup {
  store: 'sqlite' | 'postgres'
  nats: boolean
}

interface Relay {
  url: string
  running: RunningRelay
  /** Every bus message of the deployment as `<subject> <text>` (NATS runs only). */
  published: string[]
  stop(): Promise<void>
}

async function startOn(setup: Setup): Promise<Relay> {
  const dataDir = await mkdtemp(joinPath(tmpdir(), 'mesh-private-paths-'))
  const schema = uniqueSchema('privpaths')
  const natsPrefix = uniqueNatsPrefix()
  const running = await startRelayServer({
    logger: silentLogger,
    ...(setup.store === 'postgres' ? {databaseUrl: PG_URL, databaseSchema: schema} : {dataDir}),
    ...(setup.nats ? {natsUrl: NATS_URL, natsPrefix} : {}),
  })
  const spy = setup.nats ? await recordNats(natsPrefix) : undefined
  const published = spy?.published ?? []
  return {
    url: running.url,
    running,
    published,
    async stop() {
      await spy?.close()
      await running.stop()
      if (setup.store === 'postgres') await dropSchema(schema)
      await rm(dataDir, {recursive: true, force: true})
    },
  }
}

type Answer = {status: number; body?: {error?: {code?: string; message?: string}}}
const errorOf = (answer: Answer) => ({status: answer.status, code: answer.body?.error?.code, message: answer.body?.error?.message})

describe.each([
  {store: 'sqlite', nats: false},
  {store: 'postgres', nats: true},
] as Setup[])('private clusters on every relay path ($store, nats: $nats)', (setup) => {
  let relay: Relay
  /** The private cluster under test, with a board `notes` and one post. */
  let secret: Created
  let other: Created
  let open: Created
  let postId: string
  let deleteToken: string
  const unknownId = newClusterId()
  const clients: Client[] = []
  /** Tokens that are not the secret cluster's: each must count as no token at all. */
  let strangers: Array<[string, string]>

  beforeAll(async () => {
    relay = await startOn(setup)
    secret = await createCluster(relay.url, {name: 'Back room', persist: true})
    other = await createCluster(relay.url, {name: 'Other room'})
    open = await createCluster(relay.url, {name: 'Town square', visibility: 'public'})
    strangers = [
      ['a wrong ck_ token', 'ck_not-this-clusters'],
      ['a wrong ak_ token', 'ak_not-this-clusters'],
      ["another private cluster's ck_", other.token],
      ["another private cluster's ak_", other.admin_token],
      ["a public cluster's ck_", open.token],
      ["a public cluster's ak_", open.admin_token],
    ]
    const board = await api(relay.url, 'POST', `/v1/clusters/${secret.cluster_id}/boards`, {slug: 'notes', title: 'Notes'}, {'x-cluster-token': secret.admin_token})
    expect(board.status).toBe(201)
    const post = await api(relay.url, 'POST', `/v1/clusters/${secret.cluster_id}/boards/notes/posts?agent=ann`, {title: 'Plan', body: 'secret plan', ttl: '7d'}, {'x-cluster-token': secret.token})
    expect(post.status).toBe(201)
    postId = post.body.post.post_id
    deleteToken = post.body.delete_token
  })
  afterAll(async () => {
    for (const client of clients.splice(0)) client.ws.terminate()
    await relay?.stop()
  })

  const call = (method: string, path: string, token?: string, body?: unknown, extra: Record<string, string> = {}) =>
    api(relay.url, method, path, body, {...(token ? {'x-cluster-token': token} : {}), ...extra})

  describe('detail and catalog', () => {
    it('answers 404 cluster_not_found for a private id without its token, exactly as for an unknown id', async () => {
      const unknown = errorOf(await call('GET', `/v1/clusters/${unknownId}`))
      expect(unknown).toEqual({status: 404, code: 'cluster_not_found', message: 'No such cluster'})
      expect(errorOf(await call('GET', `/v1/clusters/${secret.cluster_id}`))).toEqual(unknown)
      for (const [, token] of strangers) {
        expect(errorOf(await call('GET', `/v1/clusters/${secret.cluster_id}`, token))).toEqual(unknown)
        expect(errorOf(await api(relay.url, 'GET', `/v1/clusters/${secret.cluster_id}?token=${encodeURIComponent(token)}`))).toEqual(unknown)
      }
    })

    it('shows it with its ck_ or ak_ token, in each place a token may go', async () => {
      const path = `/v1/clusters/${secret.cluster_id}`
      for (const token of [secret.token, secret.admin_token]) {
        expect((await call('GET', path, token)).body.cluster.visibility).toBe('private')
        expect((await api(relay.url, 'GET', path, undefined, {authorization: `Bearer ${token}`})).status).toBe(200)
        expect((await api(relay.url, 'GET', `${path}?token=${encodeURIComponent(token)}`)).status).toBe(200)
      }
    })

    it('has no slug and no catalog entry: its name finds nothing, even with the token', async () => {
      expect(secret.slug).toBeUndefined()
      expect(errorOf(await call('GET', '/v1/clusters/back-room', secret.token))).toMatchObject({status: 404, code: 'cluster_not_found'})
      expect((await call('GET', `/v1/clusters/${open.slug}`)).body.cluster.cluster_id).toBe(open.cluster_id)
      const catalog = (await call('GET', '/v1/clusters')).body
      expect(catalog.clusters.map((c: {id: string}) => c.id)).toEqual([open.cluster_id])
      expect(catalog.count).toBe(1)
    })
  })

  describe('PATCH and DELETE: the admin token only', () => {
    // spec Errors: 401 for a missing or wrong admin token, the ck_ token included (so these two routes,
    // like the socket, tell that a private id exists; they read and change nothing).
    const refusals = (member: string): Array<[string, string | undefined, string]> => [
      ['no token', undefined, 'token_required'],
      ['the ck_ token', member, 'admin_token_required'],
      ...strangers.map(([what, token]): [string, string, string] => [what, token, 'invalid_token']),
    ]

    it('refuses PATCH without the ak_ token (the ck_ token does not administer) and changes nothing', async () => {
      const path = `/v1/clusters/${secret.cluster_id}`
      for (const [what, token, code] of refusals(secret.token)) {
        expect({what, ...errorOf(await call('PATCH', path, token, {persist: false, props: {lang: 'xx'}}))}).toMatchObject({what, status: 401, code})
      }
      const detail = (await call('GET', path, secret.token)).body.cluster
      expect({persist: detail.persist, props: detail.props}).toEqual({persist: true, props: {}})
      const patched = await call('PATCH', path, secret.admin_token, {props: {lang: 'de'}})
      expect([patched.status, patched.body.cluster.props]).toEqual([200, {lang: 'de'}])
    })

    it('refuses DELETE without the ak_ token and keeps the cluster; the ak_ token deletes it', async () => {
      const doomed = await createCluster(relay.url, {})
      const path = `/v1/clusters/${doomed.cluster_id}`
      for (const [what, token, code] of refusals(doomed.token)) {
        expect({what, ...errorOf(await call('DELETE', path, token))}).toMatchObject({what, status: 401, code})
      }
      expect((await call('GET', path, doomed.token)).status).toBe(200)
      expect((await call('DELETE', path, doomed.admin_token)).body).toEqual({ok: true, cluster_id: doomed.cluster_id})
      expect(errorOf(await call('GET', path, doomed.admin_token))).toMatchObject({status: 404, code: 'cluster_not_found'})
      expect(errorOf(await call('DELETE', `/v1/clusters/${unknownId}`, doomed.admin_token))).toMatchObject({status: 404, code: 'cluster_not_found'})
    })
  })

  describe('boards and posts', () => {
    const routes = () => {
      const base = `/v1/clusters/${secret.cluster_id}/boards`
      return [
        {what: 'list boards', method: 'GET', path: base},
        {what: 'read a board', method: 'GET', path: `${base}/notes`},
        {what: 'create a board', method: 'POST', path: base, body: {slug: 'intruders', title: 'Intruders'}},
        {what: 'delete a board', method: 'DELETE', path: `${base}/notes`},
        {what: 'read posts', method: 'GET', path: `${base}/notes/posts`},
        {what: 'read a post', method: 'GET', path: `${base}/notes/posts/${postId}`},
        {what: 'pin a post', method: 'POST', path: `${base}/notes/posts?agent=mallory`, body: {title: 'Hi', body: 'intrusion', ttl: '24h'}},
        // The post's own delete token is no key to the private cluster.
        {what: 'delete a post', method: 'DELETE', path: `${base}/notes/posts/${postId}`, headers: {'x-delete-token': deleteToken}},
      ]
    }

    it('answers every route 404 cluster_not_found without the token, as for an unknown cluster, and changes nothing', async () => {
      for (const route of routes()) {
        const unknown = errorOf(await call(route.method, route.path.replace(secret.cluster_id, unknownId), undefined, route.body, route.headers))
        expect({what: route.what, ...unknown}).toEqual({what: route.what, status: 404, code: 'cluster_not_found', message: 'No such cluster'})
        const attempts = [await call(route.method, route.path, undefined, route.body, route.headers)]
        for (const [, token] of strangers) {
          attempts.push(await call(route.method, route.path, token, route.body, route.headers))
          const sep = route.path.includes('?') ? '&' : '?'
          attempts.push(await call(route.method, `${route.path}${sep}token=${encodeURIComponent(token)}`, undefined, route.body, route.headers))
          attempts.push(await call(route.method, route.path, undefined, route.body, {...route.headers, authorization: `Bearer ${token}`}))
        }
        for (const attempt of attempts) expect({what: route.what, ...errorOf(attempt)}).toEqual({what: route.what, ...unknown})
      }
      const boards = (await call('GET', `/v1/clusters/${secret.cluster_id}/boards`, secret.token)).body.boards
      expect(boards.map((b: {slug: string}) => b.slug)).toEqual(['notes'])
      const posts = (await call('GET', `/v1/clusters/${secret.cluster_id}/boards/notes/posts`, secret.token)).body.posts
      expect(posts.map((p: {post_id: string; body: string}) => [p.post_id, p.body])).toEqual([[postId, 'secret plan']])
    })

    it('lets the ck_ token read and pin, and delete a post with its delete token, but not administer boards', async () => {
      const base = `/v1/clusters/${secret.cluster_id}/boards`
      expect((await call('GET', base, secret.token)).status).toBe(200)
      expect((await call('GET', `${base}/notes`, secret.token)).status).toBe(200)
      expect((await call('GET', `${base}/notes/posts/${postId}`, secret.token)).body.post.body).toBe('secret plan')
      const pinned = await call('POST', `${base}/notes/posts?agent=bob`, secret.token, {title: 'Mine', body: 'by bob', ttl: '24h'})
      expect(pinned.status).toBe(201)
      expect(errorOf(await call('POST', base, secret.token, {slug: 'mine', title: 'Mine'}))).toMatchObject({status: 401, code: 'admin_token_required'})
      expect(errorOf(await call('DELETE', `${base}/notes`, secret.token))).toMatchObject({status: 401, code: 'admin_token_required'})
      // Without the delete token the ck_ token cannot delete someone's post.
      expect(errorOf(await call('DELETE', `${base}/notes/posts/${postId}`, secret.token))).toMatchObject({status: 401, code: 'delete_token_required'})
      const own = await call('DELETE', `${base}/notes/posts/${pinned.body.post.post_id}`, secret.token, undefined, {'x-delete-token': pinned.body.delete_token})
      expect(own.body).toEqual({ok: true, post_id: pinned.body.post.post_id})
    })

    it('lets the ak_ token do all of it, a post delete included', async () => {
      const base = `/v1/clusters/${secret.cluster_id}/boards`
      expect((await call('GET', `${base}/notes/posts`, secret.admin_token)).status).toBe(200)
      const board = await call('POST', base, secret.admin_token, {slug: 'scratch', title: 'Scratch'})
      expect(board.status).toBe(201)
      const pinned = await call('POST', `${base}/scratch/posts?agent=ann`, secret.admin_token, {title: 'x', body: 'y', ttl: '24h'})
      expect(pinned.status).toBe(201)
      expect((await call('DELETE', `${base}/scratch/posts/${pinned.body.post.post_id}`, secret.admin_token)).status).toBe(200)
      expect((await call('DELETE', `${base}/scratch`, secret.admin_token)).status).toBe(200)
    })
  })

  describe('the member socket and the wall', () => {
    const member = async (clusterId: string, query: Record<string, string | undefined>, headers?: Record<string, string>) => {
      const client = headers ? new Client(new WebSocket(wsUrl(relay.url, clusterId, query), {headers})) : await join(relay.url, clusterId, query)
      clients.push(client)
      if (headers) {
        await client.opened
        await client.next((f) => f.type === 'ready')
      }
      return client
    }

    it('refuses a private socket without its token with 401 before the upgrade; an unknown cluster is 404', async () => {
      expect(await refusal(relay.url, unknownId, {agent: 'eve'})).toMatchObject({status: 404, body: {error: {code: 'cluster_not_found'}}})
      expect(await refusal(relay.url, secret.cluster_id, {agent: 'eve'})).toMatchObject({status: 401, body: {error: {code: 'token_required'}}})
      for (const [, token] of strangers) {
        expect(await refusal(relay.url, secret.cluster_id, {agent: 'eve', token})).toMatchObject({status: 401, body: {error: {code: 'invalid_token'}}})
      }
    })

    it('admits the ck_ and the ak_ token (query or header), never as owner of a private cluster', async () => {
      const byQuery = await member(secret.cluster_id, {agent: 'alice', token: secret.token})
      expect(byQuery.frames[0]).toMatchObject({type: 'ready', public: false, owner: false})
      const byAdmin = await member(secret.cluster_id, {agent: 'root', token: secret.admin_token})
      expect(byAdmin.frames[0]).toMatchObject({type: 'ready', owner: false})
      const byHeader = await member(secret.cluster_id, {agent: 'cli'}, {'x-cluster-token': secret.token})
      expect(byHeader.frames[0]).toMatchObject({type: 'ready', public: false})
    })

    it('broadcasts server-side (the channel route) only with the token; refusals are the unknown-cluster 404 and reach nobody', async () => {
      const watcher = await member(secret.cluster_id, {agent: 'watcher', token: secret.token})
      const broadcast = (clusterId: string, payload: string, token?: string) =>
        relay.running.relay.broadcast(clusterId, 'ann', payload, token).then(
          (result) => ({result}),
          (error: unknown) => ({error: isMeshError(error) ? {kind: error.kind, code: error.code} : String(error)}),
        )
      const unknown = await broadcast(unknownId, 'refused: unknown')
      expect(unknown).toEqual({error: {kind: 'not_found', code: 'cluster_not_found'}})
      expect(await broadcast(secret.cluster_id, 'refused: no token')).toEqual(unknown)
      for (const [what, token] of strangers) expect(await broadcast(secret.cluster_id, `refused: ${what}`, token)).toEqual(unknown)
      // A channel id is a cluster id: a public cluster's slug is none.
      expect(await broadcast(open.slug!, 'refused: slug')).toEqual(unknown)
      expect(await broadcast(secret.cluster_id, 'accepted: ck_', secret.token)).toMatchObject({result: {delivered: expect.any(Number)}})
      expect(await broadcast(secret.cluster_id, 'accepted: ak_', secret.admin_token)).toMatchObject({result: {delivered: expect.any(Number)}})
      await watcher.next((f) => f.type === 'message' && f.payload === 'accepted: ak_')
      expect(watcher.ofType('message').map((f) => f.payload)).toEqual(['accepted: ck_', 'accepted: ak_'])
    })

    it("resolves no hashtag of another cluster's post: a public member cannot test a private post id", async () => {
      const speaker = await member(open.cluster_id, {agent: 'speaker'})
      const listener = await member(open.cluster_id, {agent: 'listener'})
      speaker.send({payload: `see #${postId} and #notes`})
      const heard = await listener.next((f) => f.type === 'message')
      expect(heard.payload).toBe(`see #${postId} and #notes`)
      expect(heard).not.toHaveProperty('ref')
      expect(heard).not.toHaveProperty('board')
    })

    if (setup.nats) {
      it("puts nothing on the private cluster's subject for a refused attempt", async () => {
        // Every refused attempt above ran before this; each accepted send above left its marker on the bus.
        const marker = 'accepted: bus check'
        await relay.running.relay.broadcast(secret.cluster_id, 'ann', 'refused: bus', 'ck_wrong').catch(() => {})
        await relay.running.relay.broadcast(secret.cluster_id, 'ann', marker, secret.token)
        await expect.poll(() => relay.published.some((m) => m.includes(marker))).toBe(true)
        expect(relay.published.filter((m) => m.includes('refused') || m.includes('intrusion') || m.includes('mallory'))).toEqual([])
        expect(relay.published.filter((m) => m.includes(marker)).map((m) => m.slice(0, m.indexOf(' ')))).toEqual([`cluster.${secret.cluster_id}`])
      })
    }
  })
})
