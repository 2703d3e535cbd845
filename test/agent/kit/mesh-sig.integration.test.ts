/** Issue 11 security bar: every bad Mesh-Sig is a 401 with a clear code and reason, through the identity layer's verifier. */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {didKeyFromPublicKey} from '../../../src/identity/did-key.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import {createAgent} from '../../../src/agent/kit/create-agent.js'
import type {Caller} from '../../../src/agent/kit/types.js'
import {serve} from '../../../src/http/host.js'
import {silentLogger} from '../../../src/lib/log.js'
import {serveAgent as serveBehindProxy} from '../../support/served-agent.js'
import {echoSkill, keys, post, serveAgent, testCard, type ServedAgent, readJson} from './support.js'

let served: ServedAgent
const callers: Caller[] = []
beforeAll(async () => {
  served = await serveAgent({
    card: testCard({skills: [echoSkill]}),
    skills: {
      echo(input: {text: string}, ctx) {
        callers.push(ctx.caller)
        return {text: input.text}
      },
    },
  })
})
afterAll(() => served.stop())

const sign = (path: string, body: string, extra: {ts?: number; nonce?: string; method?: string} = {}) =>
  signRequest({method: extra.method ?? 'POST', path, body, privateKey: keys.privateKeyPem, ts: extra.ts, nonce: extra.nonce})

async function refused(response: Response, code: string, reason: RegExp) {
  expect(response.status).toBe(401)
  expect(response.headers.get('access-control-allow-origin')).toBe('*')
  const {error} = await readJson(response)
  expect(error.code).toBe(code)
  expect(error.message).toMatch(reason)
}

describe('Mesh-Sig on skill calls', () => {
  it('hands the handler the verified pubkey; unsigned callers get null', async () => {
    callers.length = 0
    expect((await post(served.url, '/v1/echo', '{"text": "a"}', {sign: true})).status).toBe(200)
    expect((await post(served.url, '/v1/echo', '{"text": "b"}')).status).toBe(200)
    expect(callers.map((caller) => caller.pubkey)).toEqual([keys.publicKey, null])
  })

  it('signs the path with its query string', async () => {
    const body = '{"text": "q"}'
    const header = sign('/v1/echo?lang=en', body)
    expect((await post(served.url, '/v1/echo?lang=en', body, {sign: header})).status).toBe(200)
    await refused(await post(served.url, '/v1/echo?lang=fr', body, {sign: sign('/v1/echo?lang=en', body)}), 'invalid_signature', /does not verify/)
    await refused(await post(served.url, '/v1/echo', body, {sign: sign('/v1/echo?lang=en', body)}), 'invalid_signature', /does not verify/)
  })

  it('refuses a tampered body', async () => {
    const header = sign('/v1/echo', '{"text": "pay me 1"}')
    await refused(await post(served.url, '/v1/echo', '{"text": "pay me 9"}', {sign: header}), 'invalid_signature', /does not verify for this method, path and body/)
  })

  it('refuses a signature made for another path or method', async () => {
    const body = '{"text": "x"}'
    await refused(await post(served.url, '/v1/echo', body, {sign: sign('/v1/other', body)}), 'invalid_signature', /path/)
    await refused(await post(served.url, '/v1/echo', body, {sign: sign('/v1/echo', body, {method: 'PUT'})}), 'invalid_signature', /method/)
  })

  it('refuses a reused nonce, with the same header and with a fresh signature over another body', async () => {
    const body = '{"text": "once"}'
    const header = sign('/v1/echo', body, {nonce: 'nonce-reuse-0001'})
    expect((await post(served.url, '/v1/echo', body, {sign: header})).status).toBe(200)
    await refused(await post(served.url, '/v1/echo', body, {sign: header}), 'nonce_reused', /already used/)
    const other = '{"text": "twice"}'
    await refused(await post(served.url, '/v1/echo', other, {sign: sign('/v1/echo', other, {nonce: 'nonce-reuse-0001'})}), 'nonce_reused', /already used/)
  })

  it('does not burn a nonce on an invalid signature', async () => {
    const body = '{"text": "n"}'
    await refused(await post(served.url, '/v1/echo', '{"text": "m"}', {sign: sign('/v1/echo', body, {nonce: 'nonce-burn-0001'})}), 'invalid_signature', /does not verify/)
    expect((await post(served.url, '/v1/echo', body, {sign: sign('/v1/echo', body, {nonce: 'nonce-burn-0001'})})).status).toBe(200)
  })

  it('refuses ts outside ±120 s, and accepts ts at the edge', async () => {
    const now = Math.floor(Date.now() / 1000)
    const body = '{"text": "t"}'
    await refused(await post(served.url, '/v1/echo', body, {sign: sign('/v1/echo', body, {ts: now - 125})}), 'signature_expired', /more than 120 s/)
    await refused(await post(served.url, '/v1/echo', body, {sign: sign('/v1/echo', body, {ts: now + 125})}), 'signature_expired', /more than 120 s/)
    expect((await post(served.url, '/v1/echo', body, {sign: sign('/v1/echo', body, {ts: now - 100})})).status).toBe(200)
  })

  it('refuses a key of the wrong length', async () => {
    const body = '{"text": "k"}'
    const [version, , ts, nonce, signature] = sign('/v1/echo', body).split(' ')
    const short = Buffer.alloc(31, 7).toString('base64')
    const long = Buffer.alloc(33, 7).toString('base64')
    for (const key of [short, long]) {
      await refused(await post(served.url, '/v1/echo', body, {sign: [version, key, ts, nonce, signature].join(' ')}), 'invalid_signature_header', /public key is not base64 of 32 bytes/)
    }
  })

  it('refuses garbage headers with invalid_signature_header and a reason', async () => {
    const body = '{"text": "g"}'
    const [, pubkey, ts, nonce, signature] = sign('/v1/echo', body).split(' ')
    const cases: [string, RegExp][] = [
      ['garbage', /expected "v1 <pubkey_b64> <ts> <nonce> <sig_b64>"/],
      ['v1', /expected/],
      [`v3 ${pubkey} ${ts} ${nonce} ${signature}`, /unknown version "v3"/],
      // issue 18: v2 carries the audience as a sixth field, in its canonical form
      [`v2 ${pubkey} ${ts} ${nonce} ${signature}`, /expected "v2 <pubkey_b64> <ts> <nonce> <sig_b64> <audience>"/],
      [`v2 ${pubkey} ${ts} ${nonce} ${signature} HTTP://127.0.0.1:80/`, /audience is not a canonical origin/],
      [`v1 ${pubkey} yesterday ${nonce} ${signature}`, /ts is not Unix seconds/],
      [`v1 ${pubkey} ${ts} ${'ñ'.repeat(10)} ${signature}`, /nonce must be/],
      [`v1 ${pubkey} ${ts} short ${signature}`, /nonce must be/],
      [`v1 ${pubkey} ${ts} ${nonce} ${signature.slice(0, 40)}`, /signature is not base64 of 64 bytes/],
      [`v1 ${pubkey} ${ts} ${nonce} ${signature} extra`, /expected/],
    ]
    for (const [header, reason] of cases) await refused(await post(served.url, '/v1/echo', body, {sign: header}), 'invalid_signature_header', reason)
  })

  it('refuses a signature by another key than the one in the header', async () => {
    const body = '{"text": "o"}'
    const other = generateIdentityKeyPair()
    const [version, , ts, nonce, signature] = sign('/v1/echo', body).split(' ')
    await refused(await post(served.url, '/v1/echo', body, {sign: [version, other.publicKey, ts, nonce, signature].join(' ')}), 'invalid_signature', /does not verify/)
  })

  it('checks the signature before the input schema: a bad signature over a bad body is 401, a good one 400', async () => {
    await refused(await post(served.url, '/v1/echo', '{}', {sign: sign('/v1/echo', '{"text": "x"}')}), 'invalid_signature', /does not verify/)
    const response = await post(served.url, '/v1/echo', '{}', {sign: true})
    expect(response.status).toBe(400)
    expect((await readJson(response)).error).toMatchObject({code: 'invalid_input', field: 'text'})
  })
})

describe('GET /v1/whoami, the reference verifier', () => {
  it('answers the signer\'s pubkey and did:key', async () => {
    const response = await fetch(served.url + '/v1/whoami?check=1', {headers: {'mesh-sig': sign('/v1/whoami?check=1', '', {method: 'GET'})}})
    expect(response.status).toBe(200)
    expect(await readJson(response)).toEqual({pubkey: keys.publicKey, did: didKeyFromPublicKey(keys.publicKey), verified: true, audience_bound: false})
  })

  it('answers 401 signature_required unsigned, and the identity layer\'s code for a bad signature', async () => {
    await refused(await fetch(served.url + '/v1/whoami'), 'signature_required', /needs a Mesh-Sig signed request/)
    await refused(await fetch(served.url + '/v1/whoami', {headers: {'mesh-sig': sign('/v1/whoami', '{}', {method: 'GET'})}}), 'invalid_signature', /does not verify/)
    await refused(await fetch(served.url + '/v1/whoami', {headers: {'mesh-sig': 'v1 nope'}}), 'invalid_signature_header', /malformed/)
    const header = sign('/v1/whoami', '', {method: 'GET'})
    expect((await fetch(served.url + '/v1/whoami', {headers: {'mesh-sig': header}})).status).toBe(200)
    await refused(await fetch(served.url + '/v1/whoami', {headers: {'mesh-sig': header}}), 'nonce_reused', /already used/)
  })
})

describe('Mesh-Sig v2 at the kit: bound to the agent it names (issue 18)', () => {
  const signV2 = (url: string, path: string, body: string, method = 'POST') => signRequest({method, path, body, privateKey: keys.privateKeyPem, audience: url})

  it('a skill call signed v2 for this agent is served and marked audience-bound; v1 is served unbound', async () => {
    callers.length = 0
    const body = '{"text": "v2"}'
    expect((await post(served.url, '/v1/echo', body, {sign: signV2(served.url, '/v1/echo', body)})).status).toBe(200)
    expect((await post(served.url, '/v1/echo', body, {sign: true})).status).toBe(200)
    expect(callers.map((caller) => [caller.pubkey, caller.audienceBound])).toEqual([
      [keys.publicKey, true],
      [keys.publicKey, false],
    ])
  })

  it('refuses a v2 call signed for another agent with 401 wrong_audience, before the handler runs', async () => {
    callers.length = 0
    const body = '{"text": "forwarded"}'
    const forOther = signV2('https://other-agent.example', '/v1/echo', body)
    await refused(await post(served.url, '/v1/echo', body, {sign: forOther}), 'wrong_audience', /signed for https:\/\/other-agent\.example; this is http:\/\/127\.0\.0\.1:\d+/)
    expect(callers).toHaveLength(0)
  })

  it('/v1/whoami verifies v2 and says whether the signature names this agent', async () => {
    const response = await fetch(served.url + '/v1/whoami', {headers: {'mesh-sig': signV2(served.url, '/v1/whoami', '', 'GET')}})
    expect(await readJson(response)).toEqual({pubkey: keys.publicKey, did: didKeyFromPublicKey(keys.publicKey), verified: true, audience_bound: true})
    await refused(await fetch(served.url + '/v1/whoami', {headers: {'mesh-sig': signV2('https://other-agent.example', '/v1/whoami', '', 'GET')}}), 'wrong_audience', /other-agent/)
  })

  it("defaults to the card's url, and trusts the Host only with audienceFromRequest (behind a proxy)", async () => {
    const body = '{"text": "card"}'
    // createAgent as a library user calls it, without publicUrl: the card's url is the agent's address
    const byCard = await serve({port: 0, logger: silentLogger, services: [createAgent({card: testCard({url: 'https://echo.example.com/'}), skills: {echo: (input: {text: string}) => input}})]})
    try {
      expect((await post(byCard.url, '/v1/echo', body, {sign: signV2('https://echo.example.com', '/v1/echo', body)})).status).toBe(200)
      await refused(await post(byCard.url, '/v1/echo', body, {sign: signV2(byCard.url, '/v1/echo', body)}), 'wrong_audience', /this is https:\/\/echo\.example\.com$/)
    } finally {
      await byCard.stop()
    }
    const byHost = await serveBehindProxy({card: testCard(), skills: {echo: (input: {text: string}) => input}, audienceFromRequest: true}, {proxy: true})
    try {
      const headers = {'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example'}
      expect((await post(byHost.url, '/v1/echo', body, {sign: signV2('https://public.example', '/v1/echo', body), headers})).status).toBe(200)
      await refused(await post(byHost.url, '/v1/echo', body, {sign: signV2('https://elsewhere.example', '/v1/echo', body), headers}), 'wrong_audience', /this is https:\/\/public\.example/)
    } finally {
      await byHost.stop()
    }
  })
})
