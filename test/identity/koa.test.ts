import Koa from 'koa'
import request from 'supertest'
import {describe, expect, it} from 'vitest'
import {errorMiddleware} from '../../src/http/error-middleware.js'
import {readJsonBody} from '../../src/http/json-body.js'
import {meshSigMiddleware} from '../../src/identity/koa.js'
import {generateIdentityKeyPair} from '../../src/identity/keys.js'
import {signRequest} from '../../src/identity/mesh-sig.js'
import {createMemoryNonceStore} from '../../src/identity/nonce-store.js'
import {silentLogger} from '../../src/lib/log.js'

function app(required: boolean, options: {publicUrl?: string; proxy?: boolean} = {}) {
  const koa = new Koa({proxy: options.proxy ?? false})
  koa.use(errorMiddleware(silentLogger))
  koa.use(meshSigMiddleware({nonces: createMemoryNonceStore(), required, publicUrl: options.publicUrl}))
  koa.use(async (ctx) => {
    const body = await readJsonBody(ctx)
    ctx.body = {signer: ctx.state.signer ?? null, got: body.value ?? null}
  })
  return koa.callback()
}

describe('meshSigMiddleware', () => {
  const keys = generateIdentityKeyPair()
  it('sets ctx.state.signer and leaves the body readable for the handler', async () => {
    const body = JSON.stringify({hello: 'world'})
    const sig = signRequest({method: 'POST', path: '/whoami?a=1', body, privateKey: keys.privateKeyPem})
    const res = await request(app(true)).post('/whoami?a=1').set('content-type', 'application/json').set('Mesh-Sig', sig).send(body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({signer: {pubkey: keys.publicKey}, got: {hello: 'world'}})
  })
  it('signs GET with the empty body hash', async () => {
    const sig = signRequest({method: 'GET', path: '/whoami', privateKey: keys.privateKeyPem})
    const res = await request(app(true)).get('/whoami').set('Mesh-Sig', sig)
    expect(res.body.signer).toEqual({pubkey: keys.publicKey})
  })
  it('refuses a missing signature when required, passes when optional', async () => {
    const refused = await request(app(true)).get('/whoami')
    expect(refused.status).toBe(401)
    expect(refused.body.error.code).toBe('signature_required')
    const passed = await request(app(false)).get('/whoami')
    expect(passed.status).toBe(200)
    expect(passed.body.signer).toBeNull()
  })
  it('refuses a bad signature even when optional', async () => {
    const sig = signRequest({method: 'GET', path: '/other', privateKey: keys.privateKeyPem})
    const res = await request(app(false)).get('/whoami').set('Mesh-Sig', sig)
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('invalid_signature')
  })
})

describe('meshSigMiddleware and Mesh-Sig v2 (issue 18)', () => {
  const keys = generateIdentityKeyPair()
  const signFor = (audience: string, path = '/whoami') => signRequest({method: 'GET', path, privateKey: keys.privateKeyPem, audience})

  it('with a public URL: takes v2 signed for it (signer.audience set), refuses one for another server', async () => {
    const server = app(true, {publicUrl: 'https://api.example/base/'})
    const good = await request(server).get('/whoami').set('Mesh-Sig', signFor('https://api.example'))
    expect(good.body.signer).toEqual({pubkey: keys.publicKey, audience: 'https://api.example'})
    const other = await request(server).get('/whoami').set('Mesh-Sig', signFor('https://other.example'))
    expect([other.status, other.body.error.code]).toEqual([401, 'wrong_audience'])
    // the Host a request names does not matter when the server knows its public URL
    const spoofed = await request(server).get('/whoami').set('Host', 'other.example').set('Mesh-Sig', signFor('http://other.example'))
    expect(spoofed.body.error.code).toBe('wrong_audience')
  })

  it('still takes v1, without an audience', async () => {
    const res = await request(app(true, {publicUrl: 'https://api.example'})).get('/whoami').set('Mesh-Sig', signRequest({method: 'GET', path: '/whoami', privateKey: keys.privateKeyPem}))
    expect(res.body.signer).toEqual({pubkey: keys.publicKey})
  })

  it('without a public URL: the Host the request was addressed to; X-Forwarded-Proto/Host only when the app trusts its proxy', async () => {
    const direct = await request(app(true)).get('/whoami').set('Host', 'api.example:8080').set('Mesh-Sig', signFor('http://api.example:8080'))
    expect(direct.body.signer).toEqual({pubkey: keys.publicKey, audience: 'http://api.example:8080'})
    const forwarded = (server: ReturnType<typeof app>) =>
      request(server).get('/whoami').set('Host', '127.0.0.1:9').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'API.example').set('Mesh-Sig', signFor('https://api.example'))
    expect((await forwarded(app(true, {proxy: true}))).body.signer).toEqual({pubkey: keys.publicKey, audience: 'https://api.example'})
    expect((await forwarded(app(true))).body.error.code).toBe('wrong_audience')
  })

  it('throws a TypeError for a public URL that cannot be an audience', () => {
    expect(() => meshSigMiddleware({nonces: createMemoryNonceStore(), publicUrl: 'https://user:pw@api.example'})).toThrow(TypeError)
  })
})
