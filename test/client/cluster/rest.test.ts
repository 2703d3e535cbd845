import {describe, expect, it} from 'vitest'
import {ClusterClient, clusterWsUrl, resolveRelayUrl} from '../../../src/client/cluster/client.js'
import {isMeshError} from '../../../src/lib/errors.js'

/** A fetch that records requests and answers from a table; implements the fetch signature. */
function fakeFetch(answer: (url: URL, init: RequestInit) => {status: number; body?: unknown}) {
  const calls: {url: URL; init: RequestInit}[] = []
  const fetchImpl = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input))
    calls.push({url, init})
    const {status, body} = answer(url, init)
    return new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {status})
  }) as typeof fetch
  return {fetchImpl, calls}
}

describe('resolveRelayUrl', () => {
  it('prefers the flag, then MESH_RELAY, then the default', () => {
    expect(resolveRelayUrl('http://relay.test:9000/', {MESH_RELAY: 'http://env:1'})).toBe('http://relay.test:9000')
    expect(resolveRelayUrl(undefined, {MESH_RELAY: 'https://env.example/mesh'})).toBe('https://env.example/mesh')
    expect(resolveRelayUrl(undefined, {})).toBe('http://127.0.0.1:8080')
  })

  it('refuses what is not an http(s)/ws(s) URL as a usage error', () => {
    for (const bad of ['relay.test', 'ftp://x']) {
      try {
        resolveRelayUrl(bad, {})
        expect.unreachable()
      } catch (error) {
        expect(isMeshError(error) && error.code).toBe('usage_relay_url')
      }
    }
  })
})

describe('clusterWsUrl', () => {
  it('builds the member socket URL with the ws scheme and the query', () => {
    expect(clusterWsUrl('http://h:1', 'c_abc', {agent: 'ada lovelace', token: 'ck_x', did: 'did:key:z6', vis: 'ghost'})).toBe(
      'ws://h:1/v1/clusters/c_abc/ws?token=ck_x&agent=ada+lovelace&did=did%3Akey%3Az6&vis=ghost',
    )
    expect(clusterWsUrl('https://h/mesh', 'c_1', {agent: 'a'})).toBe('wss://h/mesh/v1/clusters/c_1/ws?agent=a')
  })
})

describe('ClusterClient', () => {
  it('creates, lists, gets and deletes with the admin token header', async () => {
    const {fetchImpl, calls} = fakeFetch((url, init) => {
      if (init.method === 'POST') return {status: 201, body: {cluster_id: 'c_1', token: 'ck_1', admin_token: 'ak_1', visibility: 'public', ws: 'ws://x', protocol: 'p'}}
      if (init.method === 'DELETE') return {status: 200, body: {ok: true, cluster_id: 'c_1'}}
      if (url.pathname === '/v1/clusters') return {status: 200, body: {clusters: [{id: 'c_1'}], count: 1}}
      return {status: 200, body: {cluster: {cluster_id: 'c_1', slug: 'town'}}}
    })
    const client = new ClusterClient({relay: 'http://relay:1', fetch: fetchImpl})
    expect(await client.create({name: 'Town', visibility: 'public'})).toMatchObject({cluster_id: 'c_1', admin_token: 'ak_1'})
    expect(JSON.parse(String(calls[0].init.body))).toEqual({name: 'Town', visibility: 'public'})
    expect(await client.list()).toEqual({clusters: [{id: 'c_1'}], count: 1})
    expect(await client.get('town')).toEqual({cluster_id: 'c_1', slug: 'town'})
    expect(await client.resolveClusterId('town')).toBe('c_1')
    expect(await client.resolveClusterId('c_zzz')).toBe('c_zzz')
    await client.delete('c_1', 'ak_1')
    const deleteCall = calls.find((call) => call.init.method === 'DELETE')!
    expect((deleteCall.init.headers as Record<string, string>)['x-cluster-token']).toBe('ak_1')
  })

  it('keeps the relay error code and maps the status to a kind', async () => {
    const {fetchImpl} = fakeFetch(() => ({status: 401, body: {error: {code: 'admin_token_required', message: 'Give the admin token'}}}))
    const client = new ClusterClient({relay: 'http://relay:1', fetch: fetchImpl})
    await expect(client.delete('c_1', 'ck_wrong')).rejects.toMatchObject({kind: 'unauthorized', code: 'admin_token_required', message: 'Give the admin token'})
  })

  it('explains a non-JSON error page and a relay that cannot be reached', async () => {
    const {fetchImpl} = fakeFetch(() => ({status: 502, body: '<html>bad gateway</html>'}))
    await expect(new ClusterClient({relay: 'http://relay:1', fetch: fetchImpl}).list()).rejects.toMatchObject({code: 'http_502', message: 'The relay answered 502 to GET /v1/clusters'})
    const down = (async () => {
      throw new TypeError('fetch failed', {cause: new Error('connect ECONNREFUSED 127.0.0.1:1')})
    }) as typeof fetch
    await expect(new ClusterClient({relay: 'http://127.0.0.1:1', fetch: down}).list()).rejects.toMatchObject({
      code: 'relay_unreachable',
      message: 'Cannot reach the relay at http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
    })
  })
})
