import http from 'node:http'
import Koa from 'koa'
import request from 'supertest'
import {describe, expect, it} from 'vitest'
import {errorMiddleware} from '../../src/http/error-middleware.js'
import {silentLogger} from '../../src/lib/log.js'
import {readJsonBody, readJsonObject} from '../../src/http/json-body.js'

function app(limit = 100) {
  const koa = new Koa()
  koa.silent = true
  koa.use(errorMiddleware(silentLogger))
  koa.use(async (ctx) => {
    const first = await readJsonObject(ctx, limit)
    const again = await readJsonBody(ctx, limit)
    ctx.body = {value: first.value, raw: first.raw.toString('utf8'), memoised: first === again || first.raw === again.raw}
  })
  return koa.callback()
}

describe('readJsonObject', () => {
  it('reads a JSON object, keeping the raw bytes, once per request', async () => {
    const res = await request(app()).post('/').set('content-type', 'application/json').send('{"a": [1, "é"]}')
    expect(res.body).toEqual({value: {a: [1, 'é']}, raw: '{"a": [1, "é"]}', memoised: true})
  })
  it('reads an empty body as {}', async () => {
    const res = await request(app()).post('/')
    expect(res.body).toEqual({value: {}, raw: '', memoised: true})
  })
  it('refuses malformed JSON and non-objects with 400', async () => {
    for (const [body, code] of [['{"a": ', 'invalid_json'], ['[1]', 'invalid_body'], ['"text"', 'invalid_body'], ['null', 'invalid_body']]) {
      const res = await request(app()).post('/').set('content-type', 'application/json').send(body)
      expect([body, res.status, res.body.error.code]).toEqual([body, 400, code])
    }
  })
  it('refuses bytes that are not UTF-8 instead of storing U+FFFD in their place', async () => {
    const server = http.createServer(app())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const {port} = server.address() as {port: number}
      // Raw bytes: supertest would serialize a Buffer as JSON.
      const post = async (bytes: Buffer) => {
        const res = await fetch(`http://127.0.0.1:${port}/`, {method: 'POST', headers: {'content-type': 'application/json'}, body: bytes})
        return {status: res.status, body: (await res.json()) as {error?: {code: string; message: string}; value?: unknown}}
      }
      const latin1 = await post(Buffer.concat([Buffer.from('{"a": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]))
      expect([latin1.status, latin1.body.error?.code, latin1.body.error?.message]).toEqual([400, 'invalid_json', 'Request body is not valid UTF-8 (JSON text must be UTF-8)'])
      const fine = await post(Buffer.from('{"a": "café 😀"}'))
      expect([fine.status, fine.body.value]).toEqual([200, {a: 'café 😀'}])
    } finally {
      server.close()
    }
  })
  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const declared = await request(app(10)).post('/').set('content-type', 'application/json').send(JSON.stringify({a: 'x'.repeat(20)}))
    expect([declared.status, declared.body.error.code]).toEqual([413, 'body_too_large'])
    // Chunked: no content-length, the cap applies while reading.
    const server = http.createServer(app(10))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const {port} = server.address() as {port: number}
      const answer = await new Promise<{status: number; body: string}>((resolve, reject) => {
        const req = http.request({host: '127.0.0.1', port, method: 'POST', path: '/', headers: {'content-type': 'application/json', 'transfer-encoding': 'chunked'}}, (res) => {
          let body = ''
          res.on('data', (chunk) => (body += chunk))
          res.on('end', () => resolve({status: res.statusCode!, body}))
        })
        req.on('error', reject)
        req.write('{"a": "xxxxxxxx')
        req.end('xxxxxxxxxxxxxx"}')
      })
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.body).error.code).toBe('body_too_large')
    } finally {
      server.close()
    }
  })
  it('rejects, without hanging, when the client goes away mid-body', async () => {
    let outcome: Promise<unknown> | undefined
    const server = http.createServer((req, res) => {
      const ctx = {req, state: {}, get: (name: string) => req.headers[name.toLowerCase()] ?? ''} as unknown as Koa.Context
      outcome = readJsonObject(ctx, 1000).then(
        () => 'read',
        (error: {code?: string; kind?: string}) => ({code: error.code, kind: error.kind}),
      )
      void res
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const {port} = server.address() as {port: number}
      const req = http.request({host: '127.0.0.1', port, method: 'POST', path: '/', headers: {'content-type': 'application/json', 'content-length': '100'}})
      req.on('error', () => {})
      req.write('{"a": ')
      // Once the server is reading this request, the client disappears.
      await expect.poll(() => outcome !== undefined).toBe(true)
      req.destroy()
      // A client error (400 incomplete_body), not an unhandled one logged as a server failure.
      expect(await outcome).toEqual({code: 'incomplete_body', kind: 'invalid'})
    } finally {
      server.close()
    }
  })
})
