/** The kit's side of pay-per-call, against a fake gate implementing the real PaymentGate interface. */
import {createHash} from 'node:crypto'
import {afterEach, describe, expect, it} from 'vitest'
import {MeshError} from '../../../src/lib/errors.js'
import type {CardSkill} from '../../../src/protocol/agent-card.js'
import type {GateDecision, PaidCall} from '../../../src/agent/payments/types.js'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {admit, challenge, echoSkill, fakeGate, keys, post, serveAgent, testCard, type ServedAgent, readJson} from './support.js'

const paidSkill: CardSkill = {...echoSkill, id: 'paid', pricing: {unit: 'request', amount: 1500, currency: 'lamports', network: 'solana-devnet'}}

let served: ServedAgent | undefined
afterEach(async () => {
  await served?.stop()
  served = undefined
})

async function start(next?: (call: PaidCall) => GateDecision | Promise<GateDecision>, handler?: (input: {text: string}, ctx: SkillContext) => unknown, withTopup = true) {
  const {gate, log} = fakeGate(next, withTopup)
  const contexts: SkillContext[] = []
  served = await serveAgent({
    card: testCard({skills: [echoSkill, paidSkill]}),
    skills: {
      echo: (input: {text: string}) => ({text: input.text}),
      paid: (input: {text: string}, ctx) => {
        contexts.push(ctx)
        return handler ? handler(input, ctx) : {text: input.text}
      },
    },
    payments: gate,
  })
  return {url: served.url, log, contexts}
}

describe('paid skills through the kit', () => {
  it('passes the 402 challenge\'s headers and body through, with the X-Payment-* headers exposed to browsers', async () => {
    const {url, log, contexts} = await start(() => challenge('nonce-abcdef-01'))
    const body = '{"text": "buy"}'
    const response = await post(url, '/v1/paid', body, {sign: true, headers: {'x-payment-proof': '  5igSig  '}})
    expect(response.status).toBe(402)
    expect(response.headers.get('x-payment-network')).toBe('solana-devnet')
    expect(response.headers.get('x-payment-address')).toBe('Wallet1111')
    expect(response.headers.get('x-payment-amount')).toBe('1500')
    expect(response.headers.get('x-payment-nonce')).toBe('nonce-abcdef-01')
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Payment-Network, X-Payment-Address, X-Payment-Amount, X-Payment-Nonce, mcp-session-id')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await readJson(response)).toEqual((challenge('nonce-abcdef-01') as Extract<GateDecision, {kind: 'challenge'}>).challenge.body)
    expect(contexts).toHaveLength(0)
    expect(log.admitted).toEqual([
      {
        skillId: 'paid',
        resource: '/v1/paid',
        bodyHash: createHash('sha256').update(body).digest('hex'),
        lamports: 1500n,
        caller: {pubkey: keys.publicKey, ip: '127.0.0.1', audienceBound: false},
        proof: '5igSig',
      },
    ])
  })

  it('validates the body (400) before the gate is asked', async () => {
    const {url, log} = await start(() => challenge())
    const response = await post(url, '/v1/paid', '{"text": ""}')
    expect(response.status).toBe(400)
    expect((await readJson(response)).error).toMatchObject({code: 'invalid_input', field: 'text'})
    expect((await post(url, '/v1/paid', 'nope')).status).toBe(400)
    expect(log.admitted).toHaveLength(0)
  })

  it('checks Mesh-Sig (401) before the gate is asked', async () => {
    const {url, log} = await start(() => challenge())
    const response = await post(url, '/v1/paid', '{"text": "x"}', {sign: 'v1 garbage'})
    expect(response.status).toBe(401)
    expect(log.admitted).toHaveLength(0)
  })

  it('answers 503 with Retry-After when the gate cannot ask the chain node', async () => {
    const {url, log} = await start(() => {
      throw new MeshError('unavailable', 'rpc_unavailable', 'The chain node did not answer; retry shortly', {details: {retry_after: 4.2}})
    })
    const response = await post(url, '/v1/paid', '{"text": "x"}', {headers: {'x-payment-proof': 'sig'}})
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect((await readJson(response)).error).toMatchObject({code: 'rpc_unavailable', retry_after: 4.2})
    expect(log.commits + log.releases).toBe(0)
  })

  it('runs the handler with the receipt and commits after success', async () => {
    const {url, log, contexts} = await start(() => admit({via: 'proof', signature: '5igSig'}))
    const response = await post(url, '/v1/paid', '{"text": "paid"}', {headers: {'x-payment-proof': '5igSig'}})
    expect(response.status).toBe(200)
    expect(await readJson(response)).toEqual({text: 'paid'})
    expect(contexts[0].payment).toEqual({via: 'proof', signature: '5igSig'})
    expect(contexts[0].caller).toEqual({pubkey: null, ip: '127.0.0.1', audienceBound: false})
    expect(log).toMatchObject({commits: 1, releases: 0})
  })

  it('commits with the answer it sends, so the gate can keep it for a retry with the same proof', async () => {
    const committed: unknown[] = []
    const {url} = await start(() => ({
      kind: 'admitted',
      hold: {
        receipt: {via: 'proof', signature: '5igSig'},
        commit: async (answer) => {
          committed.push(answer)
        },
        release: async () => {},
      },
    }))
    const response = await post(url, '/v1/paid', '{"text": "kept"}', {headers: {'x-payment-proof': '5igSig'}})
    expect(await response.text()).toBe('{"text":"kept"}')
    expect(committed).toEqual([{status: 200, body: '{"text":"kept"}'}])
  })

  it('answers a replay decision with the stored answer, without running the handler', async () => {
    const {url, contexts, log} = await start(() => ({kind: 'replay', signature: '5igSig', answer: {status: 200, body: '{"text":"first answer"}', headers: {'x-kept': 'yes'}}}))
    const response = await post(url, '/v1/paid', '{"text": "again"}', {headers: {'x-payment-proof': '5igSig'}})
    expect(response.status).toBe(200)
    expect(response.headers.get('x-kept')).toBe('yes')
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.text()).toBe('{"text":"first answer"}')
    expect(contexts).toHaveLength(0)
    expect(log).toMatchObject({commits: 0, releases: 0})
  })

  it('releases when the handler fails (MeshError or crash), and answers the error', async () => {
    const {url, log} = await start(
      () => admit({via: 'credit', creditsLeft: 2}),
      (input) => {
        if (input.text === 'busy') throw new MeshError('unavailable', 'model_busy', 'Try again', {details: {retry_after: 2}})
        throw new Error('boom')
      },
    )
    const busy = await post(url, '/v1/paid', '{"text": "busy"}')
    expect(busy.status).toBe(503)
    expect(busy.headers.get('retry-after')).toBe('2')
    const crash = await post(url, '/v1/paid', '{"text": "crash"}')
    expect(crash.status).toBe(500)
    expect((await readJson(crash)).error.code).toBe('skill_failed')
    expect(log).toMatchObject({commits: 0, releases: 2})
  })

  it('answers the handler\'s result even when commit fails', async () => {
    const {url} = await start(() => ({
      kind: 'admitted',
      hold: {
        receipt: {via: 'allowance', allowanceLeft: 0},
        commit: async () => {
          throw new Error('disk full')
        },
        release: async () => {},
      },
    }))
    const response = await post(url, '/v1/paid', '{"text": "ok"}')
    expect(response.status).toBe(200)
  })

  it('never asks the gate for a free skill on a paid agent', async () => {
    const {url, log} = await start(() => challenge())
    expect((await post(url, '/v1/echo', '{"text": "free"}')).status).toBe(200)
    expect(log.admitted).toHaveLength(0)
  })
})

describe('POST /v1/topup', () => {
  it('needs a signed caller, a {payer_address} body, and answers the gate\'s instructions', async () => {
    const {url, log} = await start()
    const unsigned = await post(url, '/v1/topup', '{"payer_address": "Payer111"}')
    expect(unsigned.status).toBe(401)
    expect((await readJson(unsigned)).error.code).toBe('signature_required')
    const badSig = await post(url, '/v1/topup', '{"payer_address": "Payer111"}', {sign: 'v1 x y z w'})
    expect(badSig.status).toBe(401)
    expect((await readJson(badSig)).error.code).toBe('invalid_signature_header')
    for (const body of ['{}', '{"payer_address": 5}', '[]', '{"payer_address": "Payer111", "payer_signature": 7}']) {
      const response = await post(url, '/v1/topup', body, {sign: true})
      expect(response.status).toBe(400)
      expect((await readJson(response)).error.code).toBe('invalid_input')
    }
    const response = await post(url, '/v1/topup', '{"payer_address": "Payer111"}', {sign: true})
    expect(response.status).toBe(200)
    expect(await readJson(response)).toEqual({payer_address: 'Payer111', pay_to: 'Wallet1111', credits: 0})
    expect(log.topups).toEqual([{pubkey: keys.publicKey, payerAddress: 'Payer111'}])
    // the proof of control is handed to the gate as given (trimmed)
    expect((await post(url, '/v1/topup', '{"payer_address": "Payer111", "payer_signature": " 5igSig "}', {sign: true})).status).toBe(200)
    expect(log.topups[1]).toEqual({pubkey: keys.publicKey, payerAddress: 'Payer111', payerSignature: '5igSig'})
    const banner = await readJson(await fetch(url + '/'))
    expect(banner.endpoints).toContain('POST /v1/topup')
  })

  it('is not served when the gate has no prepaid balance', async () => {
    const {url} = await start(undefined, undefined, false)
    const response = await post(url, '/v1/topup', '{"payer_address": "Payer111"}', {sign: true})
    expect(response.status).toBe(404)
    expect((await readJson(await fetch(url + '/'))).endpoints).not.toContain('POST /v1/topup')
  })
})
