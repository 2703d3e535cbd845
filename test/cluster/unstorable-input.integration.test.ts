/**
 * Text a store cannot keep exactly — U+0000 (PostgreSQL refuses it: a 500)
 * and lone UTF-16 surrogates (both stores turn them into U+FFFD) — is
 * refused with 400 `invalid_text` naming the field, on SQLite and on
 * PostgreSQL alike, in every stored field of clusters, boards, posts and
 * presence (a socket's handle and did, refused before the upgrade). Nothing
 * is half-written, no error is logged, and the relay goes on serving. Path
 * segments no id or slug can have (`%00`) are unknown (404) without a query.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join as joinPath} from 'node:path'
import WebSocket from 'ws'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startRelayServer, type RunningRelay} from '../../src/cluster/server.js'
import {silentLogger, type Logger} from '../../src/lib/log.js'
import {dropSchema, PG_URL, uniqueSchema} from '../support/backends.js'
import {api, Client, join, refusal, wsUrl} from './helpers.js'

/** JSON texts whose strings hold what the stores cannot keep (escapes, so the bytes on the wire are ASCII). */
const NUL = '\\u0000'
const LONE_HIGH = '\\ud800'
const LONE_LOW = '\\udc00'

interface Relay {
  url: string
  /** Messages the relay logged at error level: a client mistake must log none. */
  errors: string[]
  stop(): Promise<void>
}

async function startOn(store: 'sqlite' | 'postgres'): Promise<Relay> {
  const errors: string[] = []
  const logger: Logger = {...silentLogger, error: (message: string) => void errors.push(message)}
  const dataDir = await mkdtemp(joinPath(tmpdir(), 'mesh-unstorable-'))
  const schema = uniqueSchema('unstorable')
  const relay: RunningRelay = await startRelayServer({
    logger,
    // A refused creation must not use up the quota: three is all this suite gets.
    limits: {creationsPerIp: 3},
    ...(store === 'postgres' ? {databaseUrl: PG_URL, databaseSchema: schema} : {dataDir}),
  })
  return {
    url: relay.url,
    errors,
    async stop() {
      await relay.stop()
      if (store === 'postgres') await dropSchema(schema)
      await rm(dataDir, {recursive: true, force: true})
    },
  }
}

/** Sends a raw JSON text (escapes kept as written). */
const send = (relay: Relay, method: string, path: string, json: string, headers: Record<string, string> = {}) => api(relay.url, method, path, json, headers)

function expectInvalidText(res: {status: number; body?: {error?: {code?: string; field?: string; message?: string}}}, field: string) {
  expect({status: res.status, code: res.body?.error?.code, field: res.body?.error?.field}).toEqual({status: 400, code: 'invalid_text', field})
  expect(res.body?.error?.message).toContain(field)
}

describe.each(['sqlite', 'postgres'] as const)('unstorable text on %s', (store) => {
  let relay: Relay
  let cluster: {cluster_id: string; admin_token: string}
  let admin: Record<string, string>

  beforeAll(async () => {
    relay = await startOn(store)
    const created = await api(relay.url, 'POST', '/v1/clusters', {name: 'Hostile', visibility: 'public', persist: true})
    expect(created.status).toBe(201)
    cluster = created.body
    admin = {'x-cluster-token': cluster.admin_token}
    expect((await api(relay.url, 'POST', `/v1/clusters/${cluster.cluster_id}/boards`, {title: 'Rides'}, admin)).status).toBe(201)
  })
  afterAll(async () => {
    expect(relay.errors).toEqual([])
    await relay.stop()
  })

  it('refuses such text in a new cluster, and the refusals use none of the creation quota', async () => {
    const cases: Array<[string, string]> = [
      [`{"name":"a${NUL}b","visibility":"public"}`, 'name'],
      [`{"name":"a${LONE_HIGH}b","visibility":"public"}`, 'name'],
      [`{"name":"n","visibility":"public","topic":"${NUL}"}`, 'topic'],
      [`{"name":"n","visibility":"public","description":"x${LONE_LOW}"}`, 'description'],
      [`{"props":{"where":{"lat":1,"lon":2,"label":"${NUL}"}}}`, 'props.where.label'],
    ]
    for (const [body, field] of cases) expectInvalidText(await send(relay, 'POST', '/v1/clusters', body), field)
    // The catalog holds only the cluster made in beforeAll, and two more creations still fit the quota of three.
    expect((await api(relay.url, 'GET', '/v1/clusters')).body.count).toBe(1)
    expect((await api(relay.url, 'POST', '/v1/clusters', {})).status).toBe(201)
    expect((await api(relay.url, 'POST', '/v1/clusters', {})).status).toBe(201)
  })

  it('refuses such text in a PATCH and leaves the cluster as it was', async () => {
    const path = `/v1/clusters/${cluster.cluster_id}`
    expect((await api(relay.url, 'PATCH', path, {topic: '#rides', props: {lang: 'de'}}, admin)).status).toBe(200)
    expectInvalidText(await send(relay, 'PATCH', path, `{"topic":"${NUL}"}`, admin), 'topic')
    expectInvalidText(await send(relay, 'PATCH', path, `{"description":"d${LONE_HIGH}"}`, admin), 'description')
    expectInvalidText(await send(relay, 'PATCH', path, `{"persist":true,"props":{"where":{"lat":1,"lon":2,"label":"${LONE_LOW}"}}}`, admin), 'props.where.label')
    const detail = (await api(relay.url, 'GET', path)).body.cluster
    expect({topic: detail.topic, description: detail.description, props: detail.props}).toEqual({topic: '#rides', description: null, props: {lang: 'de'}})
  })

  it('refuses such text in a new board and creates none', async () => {
    const path = `/v1/clusters/${cluster.cluster_id}/boards`
    expectInvalidText(await send(relay, 'POST', path, `{"title":"a${NUL}b"}`, admin), 'title')
    expectInvalidText(await send(relay, 'POST', path, `{"title":"${LONE_HIGH}x"}`, admin), 'title')
    expectInvalidText(await send(relay, 'POST', path, `{"title":"t","charter":"${NUL}"}`, admin), 'charter')
    expectInvalidText(await send(relay, 'POST', path, `{"title":"t","props":{"where":{"lat":1,"lon":2,"label":"${NUL}"}}}`, admin), 'props.where.label')
    expect((await api(relay.url, 'GET', path)).body.boards.map((b: {slug: string}) => b.slug)).toEqual(['rides'])
  })

  it('refuses such text in a new post and pins none', async () => {
    const path = `/v1/clusters/${cluster.cluster_id}/boards/rides/posts?agent=al`
    expectInvalidText(await send(relay, 'POST', path, `{"title":"a${NUL}","body":"b","ttl":"24h"}`), 'title')
    expectInvalidText(await send(relay, 'POST', path, `{"title":"a","body":"${NUL}","ttl":"24h"}`), 'body')
    expectInvalidText(await send(relay, 'POST', path, `{"title":"a","body":"x${LONE_LOW}y","ttl":"24h"}`), 'body')
    expectInvalidText(await send(relay, 'POST', path, `{"title":"a","body":"b","ttl":"24h","props":{"where":{"lat":1,"lon":2,"label":"${LONE_HIGH}"}}}`), 'props.where.label')
    // A surrogate pair is a real character and is kept exactly.
    const kept = await send(relay, 'POST', path, '{"title":"\\ud83d\\ude97 ride","body":"b","ttl":"24h"}')
    expect(kept.status).toBe(201)
    const listed = (await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}/boards/rides/posts`)).body.posts
    expect(listed.map((p: {title: string}) => p.title)).toEqual(['🚗 ride'])
  })

  it('answers 404 for board and post references no id or slug can be (%00), without asking the store', async () => {
    const base = `/v1/clusters/${cluster.cluster_id}/boards`
    const cases: Array<[string, string, string]> = [
      ['GET', `${base}/%00`, 'board_not_found'],
      ['GET', `${base}/ri%00des`, 'board_not_found'],
      ['DELETE', `${base}/%00`, 'board_not_found'],
      ['GET', `${base}/%00/posts`, 'board_not_found'],
      ['POST', `${base}/%00/posts?agent=al`, 'board_not_found'],
      ['GET', `${base}/rides/posts/%00`, 'post_not_found'],
      ['GET', `${base}/rides/posts/p_%00`, 'post_not_found'],
      ['DELETE', `${base}/rides/posts/p_aaaaaaaaaaaaaaaaaaaaaaaaa%00`, 'post_not_found'],
    ]
    for (const [method, path, code] of cases) {
      const res = await api(relay.url, method, path, method === 'POST' ? {title: 't', body: 'b', ttl: '24h'} : undefined, admin)
      expect([res.status, res.body?.error?.code], `${method} ${path}`).toEqual([404, code])
    }
    // The board is still reached by slug.
    expect((await api(relay.url, 'GET', `${base}/rides`)).status).toBe(200)
  })

  it('refuses a handle or did holding U+0000 before the upgrade, and the cluster goes on relaying', async () => {
    for (const [query, field] of [[{agent: 'a\u0000b'}, 'agent'], [{agent: 'a', did: 'did:key:\u0000'}, 'did']] as const) {
      const refused = await refusal(relay.url, cluster.cluster_id, query)
      expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_text'])
      expect((refused.body.error as {message?: string}).message).toContain(field)
    }
    const a = await join(relay.url, cluster.cluster_id, {agent: 'a'})
    const b = await join(relay.url, cluster.cluster_id, {agent: 'b'})
    a.send('still here')
    expect((await b.next((f) => f.type === 'message')).payload).toBe('still here')
    const detail = (await api(relay.url, 'GET', `/v1/clusters/${cluster.cluster_id}`)).body.cluster
    expect(detail.members.map((m: {agent: string}) => m.agent)).toEqual(['a', 'b'])
    await Promise.all([a.close(), b.close()])
  })
})

// A handle arrives only in the URL, whose percent-decoding already turns a lone surrogate's bytes into
// U+FFFD: pinned here, so a change of query parser that let one through would show.
it('reads a percent-encoded lone surrogate in the handle as U+FFFD, a character every store keeps', async () => {
  const relay = await startOn('sqlite')
  try {
    const {cluster_id} = (await api(relay.url, 'POST', '/v1/clusters', {visibility: 'public'})).body
    const client = new Client(new WebSocket(wsUrl(relay.url, cluster_id, {}).replace(/\?$/, '?agent=%ED%A0%80')))
    await client.opened
    expect((await client.next((f) => f.type === 'ready')).you).toBe('\ufffd\ufffd\ufffd')
    await client.close()
  } finally {
    await relay.stop()
  }
})
