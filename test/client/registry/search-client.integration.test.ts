/** searchRegistry against the search part on a real port. */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {searchRegistry} from '../../../src/client/registry/search-client.js'
import {listen} from '../../../src/http/listen.js'
import {serveSearchFixture} from '../../registry/search/served.js'

let server: Awaited<ReturnType<typeof serveSearchFixture>>
beforeAll(async () => {
  server = await serveSearchFixture()
})
afterAll(() => server.close())

describe('searchRegistry', () => {
  it('calls POST /v1/search and returns the answer', async () => {
    const answer = await searchRegistry({prompt: 'images', filters: {limit: 1}}, {registry: server.url + '/'})
    expect(answer.results.map((r) => r.agent_id)).toEqual(['painter'])
  })

  it('turns a registry error into a MeshError with its code and field', async () => {
    await expect(searchRegistry({prompt: 'x', filters: {limit: 0}}, {registry: server.url})).rejects.toMatchObject({code: 'invalid_body', field: 'filters.limit'})
  })

  it('says when the registry cannot be reached', async () => {
    const closed = await listen(() => {})
    await closed.close()
    await expect(searchRegistry({prompt: 'x'}, {registry: closed.url})).rejects.toMatchObject({code: 'registry_unreachable'})
  })
})
