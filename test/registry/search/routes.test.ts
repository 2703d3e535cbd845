import Koa from 'koa'
import request from 'supertest'
import {afterEach, describe, expect, it} from 'vitest'
import {createLocalBus} from '../../../src/bus/bus.js'
import {errorMiddleware, notFoundMiddleware} from '../../../src/http/error-middleware.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createSearchPart, type SearchPart} from '../../../src/registry/search/part.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {agentRecord, NOW, probe, putAgent, testContext} from './fixtures.js'

let part: SearchPart | undefined
afterEach(async () => {
  await part?.close()
})

async function app() {
  const store = createMemoryRegistryStore()
  await putAgent(store, agentRecord('painter', {name: 'Painter', description: 'Generates images from text', tags: ['image'], produces: ['image/png']}, {
    probe: probe({operational: true, card_match: '2/2', skills: [{id: 'draw', url: 'https://painter.example.com/v1/draw', answering: true, status: 400}]}),
  }))
  await putAgent(store, agentRecord('sketcher', {name: 'Sketcher', description: 'Draws images as sketches', tags: ['image'], produces: ['image/svg+xml']}))
  part = createSearchPart(testContext(store, createLocalBus(), () => NOW), {resyncMs: 0})
  await part.start?.()
  const koa = new Koa()
  koa.silent = true
  koa.use(errorMiddleware(silentLogger))
  koa.use(notFoundMiddleware())
  koa.use(part.middleware!)
  return koa.callback()
}

describe('POST /v1/search', () => {
  it('answers ranked live agents with invoke URLs from the probe', async () => {
    const response = await request(await app()).post('/v1/search').send({prompt: 'generate an image', filters: {limit: 5}})
    expect(response.status).toBe(200)
    expect(response.headers['access-control-allow-origin']).toBe('*')
    expect(response.body.count).toBe(2)
    expect(response.body.ignored_keys).toEqual([])
    expect(response.body.results[0]).toMatchObject({
      agent_id: 'painter', display_name: 'Painter', online: true, operational: true, card_match: '2/2',
      invoke: [{skill: 'draw', url: 'https://painter.example.com/v1/draw'}],
    })
    expect(response.body.results[0].score).toBeGreaterThan(response.body.results[1].score)
  })

  it('filters and echoes unknown keys', async () => {
    const response = await request(await app()).post('/v1/search').send({prompt: 'image', produces: 'image/svg+xml', colour: 'blue'})
    expect(response.body.results.map((r: {agent_id: string}) => r.agent_id)).toEqual(['sketcher'])
    expect(response.body.ignored_keys).toEqual(['colour'])
  })

  it('refuses wrong types with the mesh error body', async () => {
    const response = await request(await app()).post('/v1/search').send({prompt: 'image', filters: {limit: 'ten'}})
    expect(response.status).toBe(400)
    expect(response.body).toEqual({error: {code: 'invalid_body', message: expect.stringContaining('filters.limit'), field: 'filters.limit'}})
  })

  it('refuses a missing prompt, a non-object body and broken JSON', async () => {
    const callback = await app()
    expect((await request(callback).post('/v1/search').send({})).body.error.field).toBe('prompt')
    const array = await request(callback).post('/v1/search').set('content-type', 'application/json').send('[1]')
    expect(array.status).toBe(400)
    expect(array.body.error.code).toBe('invalid_body')
    const broken = await request(callback).post('/v1/search').set('content-type', 'application/json').send('{"prompt":')
    expect(broken.status).toBe(400)
    expect(broken.body.error.code).toBe('invalid_json')
  })

  it('refuses a body over 16 KB with 413', async () => {
    const response = await request(await app()).post('/v1/search').send({prompt: 'x', pad: 'y'.repeat(20_000)})
    expect(response.status).toBe(413)
    expect(response.body.error.code).toBe('body_too_large')
  })

  it('answers GET with 405 and a preflight with 204', async () => {
    const callback = await app()
    const get = await request(callback).get('/v1/search')
    expect(get.status).toBe(405)
    expect(get.headers.allow).toBe('POST, OPTIONS')
    expect(get.body.error.code).toBe('method_not_allowed')
    const preflight = await request(callback).options('/v1/search')
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-methods']).toContain('POST')
  })

  it('leaves other paths to the next middleware', async () => {
    const response = await request(await app()).post('/v1/searches').send({prompt: 'x'})
    expect(response.status).toBe(404)
    expect(response.body.error.code).toBe('not_found')
  })
})
