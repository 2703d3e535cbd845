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

function app(required: boolean) {
  const koa = new Koa()
  koa.use(errorMiddleware(silentLogger))
  koa.use(meshSigMiddleware({nonces: createMemoryNonceStore(), required}))
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
