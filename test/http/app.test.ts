import Koa from 'koa'
import request from 'supertest'
import {describe, expect, it} from 'vitest'
import {errorMiddleware, notFoundMiddleware, readJsonObject, createRateLimiter} from '../../src/http/index.js'
import {invalid} from '../../src/lib/errors.js'
import {silentLogger} from '../../src/lib/log.js'

function app() {
  const koa = new Koa()
  koa.use(errorMiddleware(silentLogger))
  koa.use(notFoundMiddleware())
  const limiter = createRateLimiter({limit: 2, windowMs: 60_000, now: () => 0})
  koa.use(async (ctx, next) => {
    if (ctx.path === '/echo') {
      const body = await readJsonObject(ctx, 100)
      ctx.body = {got: body.value, bytes: body.raw.length}
    } else if (ctx.path === '/bad') {
      throw invalid('bad_thing', 'That is bad', {field: 'x'})
    } else if (ctx.path === '/crash') {
      throw new Error('secret internals')
    } else if (ctx.path === '/limited') {
      limiter.hit('k')
      ctx.body = {ok: true}
    } else await next()
  })
  return koa.callback()
}

describe('http base', () => {
  it('echoes a JSON object and keeps the raw bytes', async () => {
    const res = await request(app()).post('/echo').send({a: 1})
    expect(res.status).toBe(200)
    expect(res.body).toEqual({got: {a: 1}, bytes: 7})
  })
  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await request(app()).post('/echo').set('content-type', 'application/json').send('{nope')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_json')
  })
  it('answers a non-object body with 400 invalid_body', async () => {
    const res = await request(app()).post('/echo').set('content-type', 'application/json').send('[1]')
    expect(res.body.error.code).toBe('invalid_body')
  })
  it('answers an oversized body with 413', async () => {
    const res = await request(app()).post('/echo').send({a: 'x'.repeat(200)})
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('body_too_large')
  })
  it('maps a MeshError to its status, code, message and field', async () => {
    const res = await request(app()).get('/bad')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({error: {code: 'bad_thing', message: 'That is bad', field: 'x'}})
  })
  it('hides unknown errors behind a generic 500', async () => {
    const res = await request(app()).get('/crash')
    expect(res.status).toBe(500)
    expect(JSON.stringify(res.body)).not.toContain('secret')
  })
  it('answers unknown routes with a JSON 404', async () => {
    const res = await request(app()).get('/nowhere')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })
  it('answers 429 with Retry-After once over the limit', async () => {
    const handler = app()
    await request(handler).get('/limited').expect(200)
    await request(handler).get('/limited').expect(200)
    const res = await request(handler).get('/limited')
    expect(res.status).toBe(429)
    expect(res.headers['retry-after']).toBe('60')
  })
})
