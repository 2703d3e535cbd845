/**
 * Query parameters of the relay's and the boards' routes: numbers are digits
 * only (no exponent, hex, sign or spaces, nothing past their range), and a
 * parameter given twice is refused with a sentence that says so — never a
 * silent pick of one value, never "must be string".
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {startRelayServer, type RunningRelay} from '../../src/cluster/server.js'
import {silentLogger} from '../../src/lib/log.js'
import {api} from './helpers.js'

let relay: RunningRelay
let dataDir: string
let base: string
let postPath: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mesh-query-'))
  relay = await startRelayServer({dataDir, logger: silentLogger})
  const created = await api(relay.url, 'POST', '/v1/clusters', {name: 'Queries', visibility: 'public'})
  const admin = {'x-cluster-token': created.body.admin_token}
  expect((await api(relay.url, 'POST', `/v1/clusters/${created.body.cluster_id}/boards`, {title: 'Rides'}, admin)).status).toBe(201)
  base = `/v1/clusters/${created.body.cluster_id}/boards/rides`
  const post = await api(relay.url, 'POST', `${base}/posts?agent=al`, {title: 't', body: 'b', ttl: '24h'})
  postPath = `${base}/posts/${post.body.post.post_id}`
})
afterAll(async () => {
  await relay.stop()
  await rm(dataDir, {recursive: true, force: true})
})

async function expectQueryRefusal(method: string, path: string, field: string, message: RegExp, body?: unknown) {
  const res = await api(relay.url, method, path, body)
  expect({status: res.status, code: res.body?.error?.code, field: res.body?.error?.field}, `${method} ${path}`).toEqual({status: 400, code: 'invalid_query', field})
  expect(res.body.error.message, `${method} ${path}`).toMatch(message)
}

it('reads catalog limit and offset as digits only', async () => {
  for (const value of ['1e3', '0x10', '+5', '-1', ' 5', '1.5', '9999999999']) {
    await expectQueryRefusal('GET', `/v1/clusters?limit=${encodeURIComponent(value)}`, 'limit', /whole number ≥ 1, in digits/)
  }
  await expectQueryRefusal('GET', '/v1/clusters?offset=-1', 'offset', /whole number ≥ 0/)
  await expectQueryRefusal('GET', '/v1/clusters?limit=0', 'limit', /≥ 1/)
  // In range: a large offset is an empty page, a large limit is the documented maximum.
  expect((await api(relay.url, 'GET', '/v1/clusters?offset=999999999')).body).toMatchObject({clusters: [], count: 1})
  expect((await api(relay.url, 'GET', '/v1/clusters?limit=999999999')).status).toBe(200)
})

it('says "given more than once" for every repeated parameter', async () => {
  const body = {title: 't', body: 'b', ttl: '24h'}
  await expectQueryRefusal('GET', '/v1/clusters?limit=1&limit=2', 'limit', /limit is given more than once/)
  await expectQueryRefusal('GET', '/v1/clusters?offset=1&offset=1', 'offset', /offset is given more than once/)
  await expectQueryRefusal('GET', `${base}/posts?lang=en&lang=de`, 'lang', /lang is given more than once/)
  await expectQueryRefusal('GET', `${base}/posts?limit=1&limit=2`, 'limit', /limit is given more than once/)
  await expectQueryRefusal('GET', `${base}/posts?near=1,1&near=2,2&km=5`, 'near', /near is given more than once/)
  await expectQueryRefusal('POST', `${base}/posts?agent=a&agent=b`, 'agent', /agent is given more than once/, body)
  await expectQueryRefusal('GET', `${postPath}?adult=1&adult=1`, 'adult', /adult is given more than once/)
  await expectQueryRefusal('DELETE', `${postPath}?delete_token=a&delete_token=b`, 'delete_token', /delete_token is given more than once/)
  await expectQueryRefusal('GET', `${base}?token=a&token=b`, 'token', /token is given more than once/)
  // Nothing was pinned or deleted by the refused requests.
  expect((await api(relay.url, 'GET', `${base}/posts`)).body.count).toBe(1)
})

it('refuses exponent, hex and out-of-range numbers in the posts query', async () => {
  const cases: Array<[string, string, string]> = [
    ['limit=1e1', 'limit', 'invalid_query'],
    ['limit=0x1', 'limit', 'invalid_query'],
    ['limit=0', 'limit', 'invalid_limit'],
    ['limit=101', 'limit', 'invalid_limit'],
    ['near=1e1,1', 'near', 'invalid_query'],
    ['near=90.5,0', 'near', 'invalid_near'],
    ['near=1,1&km=1e3', 'km', 'invalid_query'],
    ['near=1,1&km=0', 'km', 'invalid_km'],
    ['near=1,1&km=99999', 'km', 'invalid_km'],
  ]
  for (const [query, field, code] of cases) {
    const res = await api(relay.url, 'GET', `${base}/posts?${query}`)
    expect([res.status, res.body.error.code, res.body.error.field], query).toEqual([400, code, field])
  }
})
