/**
 * HTTP level: the paid-call table through createAgent + serve() with the
 * real gate (createPayments) and a local Solana JSON-RPC node — what a caller
 * on the wire sees for each row (issue 11, deliverable 6).
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {createPayments, type Payments} from '../../../src/agent/payments/gate.js'
import type {HostedServer} from '../../../src/http/host.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import {getValidator} from '../../../src/lib/schemas.js'
import {MeshError} from '../../../src/lib/errors.js'
import {lamportsPricing, publicCard, textInputSchema} from '../../support/agent-card.js'
import {serveAgent} from '../../support/served-agent.js'
import {randomAddress, startSolanaRpc, type AddTransaction, type SolanaRpcServer} from '../../support/solana-rpc.js'
import {solanaWallet} from '../../support/solana-wallet.js'

const PRICE = 1_000_000
const MINUTE = 60_000

const card = publicCard({
  name: 'Paid Echo',
  url: 'https://paid-echo.example',
  description: 'Echoes text for 0.001 SOL a call after one free call a day.',
  protocols: ['http', 'x402'],
  pricing: lamportsPricing(PRICE),
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Answers {text}. Input: text (1 to 200 chars). 0.001 SOL per call, one free call a day.',
      examples: ['Echo "hi".', '{"text": "hi"}'],
      inputSchema: textInputSchema(),
    },
  ],
})

let node: SolanaRpcServer
let dataDir: string
let server: HostedServer | undefined
let gate: Payments
let nowMs = Date.UTC(2026, 5, 1, 12)
const clock = () => nowMs
const wallet = randomAddress()
const payerWallet = solanaWallet()
const payer = payerWallet.address
const caller = generateIdentityKeyPair()
/** Bodies the handler fails on once (to check a failed handler spends nothing). */
const failOnce = new Set<string>()

async function startAgent() {
  gate = createPayments({wallet, rpcUrl: node.url, dataDir, freePerDay: 1, card, clock, rpcTimeoutMs: 1000})
  const skills = {
    echo: (input: {text: string}, ctx: SkillContext) => {
      if (failOnce.delete(input.text)) throw new MeshError('unavailable', 'upstream_down', 'The upstream model is down')
      return {text: input.text, paid_via: ctx.payment?.via ?? null}
    },
  }
  // proxy: the test names each caller's IP with X-Forwarded-For.
  server = await serveAgent({card, payments: gate, skills}, {proxy: true})
  return server.url
}

let url: string
beforeEach(async () => {
  nowMs = Date.UTC(2026, 5, 1, 12)
  node = await startSolanaRpc({clock})
  dataDir = mkdtempSync(join(tmpdir(), 'mesh-agent-paid-http-'))
  url = await startAgent()
})
afterEach(async () => {
  await server?.stop()
  await node.close()
  rmSync(dataDir, {recursive: true, force: true})
})

let ips = 0
interface CallOptions {
  text?: string
  proof?: string
  ip?: string
  /** true: Mesh-Sig v2 naming this agent, as mesh clients sign; 'v1': the spec's form, which names no server. */
  signed?: boolean | 'v1'
  path?: string
  body?: string
}

/** POSTs the skill as a caller would: JSON body, its own IP, signed when asked, with a proof when given. */
async function call(options: CallOptions = {}) {
  const path = options.path ?? '/v1/echo'
  const body = options.body ?? JSON.stringify({text: options.text ?? 'hello'})
  const headers: Record<string, string> = {'content-type': 'application/json', 'x-forwarded-for': options.ip ?? `198.51.100.${(ips += 1)}`}
  if (options.signed) headers['mesh-sig'] = signRequest({method: 'POST', path, body, privateKey: caller.privateKeyPem, audience: options.signed === true ? url : undefined})
  if (options.proof) headers['x-payment-proof'] = options.proof
  const response = await fetch(url + path, {method: 'POST', headers, body})
  return {status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any>}
}

/** A 402 for this body, paid on the node as its hint says; returns the signature. */
async function pay(text = 'hello', tx: Partial<AddTransaction> = {}) {
  const ip = `203.0.113.${(ips += 1)}`
  let answer = await call({text, ip})
  if (answer.status === 200) answer = await call({text, ip})
  expect(answer.status).toBe(402)
  return node.addTransaction({payer, to: wallet, lamports: PRICE, memo: answer.headers.get('x-payment-nonce'), ...tx})
}

const isChallenge = getValidator('payment-challenge')

describe('the paid-call table over HTTP', () => {
  it('unpaid within the allowance: 200; used up: 402 with the X-Payment-* headers (exposed to browsers) and a valid challenge body', async () => {
    const first = await call({ip: '10.1.1.1'})
    expect(first).toMatchObject({status: 200, body: {text: 'hello', paid_via: 'allowance'}})
    const second = await call({ip: '10.1.1.1'})
    expect(second.status).toBe(402)
    const nonce = second.headers.get('x-payment-nonce')!
    expect(nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(second.headers.get('x-payment-network')).toBe('solana-devnet')
    expect(second.headers.get('x-payment-address')).toBe(wallet)
    expect(second.headers.get('x-payment-amount')).toBe(String(PRICE))
    expect(second.headers.get('content-type')).toMatch(/^application\/json/)
    expect(second.headers.get('access-control-expose-headers')).toContain('X-Payment-Nonce')
    expect(isChallenge(second.body), JSON.stringify(isChallenge.errors)).toBe(true)
    expect(second.body.accepts[0]).toMatchObject({resource: '/v1/echo', payTo: wallet, lamports: String(PRICE), nonce, chainPayUrl: `solana:${wallet}?amount=0.001&memo=${nonce}&label=Paid%20Echo`})
    expect(node.calls).toEqual([])
  })

  it('the allowance counts the signed key and the IP: either used up means pay', async () => {
    expect((await call({signed: true, ip: '10.2.2.1'})).status).toBe(200)
    // same key, fresh IP
    expect((await call({signed: true, ip: '10.2.2.2'})).status).toBe(402)
    // fresh IP already used by an unsigned caller, then a signed one from there
    expect((await call({ip: '10.2.2.3'})).status).toBe(200)
    expect((await call({signed: true, ip: '10.2.2.3'})).status).toBe(402)
  })

  it('validates the body (400) before any 402', async () => {
    await call({ip: '10.3.3.3'})
    expect(await call({ip: '10.3.3.3', body: '{}'})).toMatchObject({status: 400, body: {error: {code: 'invalid_input'}}})
  })

  it('a valid proof buys the call; a retry of it gets the stored answer; another call with it gets a fresh 402', async () => {
    const signature = await pay()
    const paid = await call({proof: signature})
    expect(paid).toMatchObject({status: 200, body: {paid_via: 'proof'}})
    expect(await call({proof: signature})).toEqual({...paid, headers: expect.anything()})
    const second = await call({proof: signature, text: 'another call'})
    expect(second.status).toBe(402)
    expect(second.body.hint).toContain('this transaction paid for another call (another body)')
    expect(node.callsOf('getTransaction')).toHaveLength(1)
    nowMs += 10 * MINUTE
    const late = await call({proof: signature})
    expect(late.status).toBe(402)
    expect(late.body.hint).toContain('that window is over')
  })

  it.each<[string, Partial<AddTransaction>, RegExp]>([
    ['failed transaction', {err: {InstructionError: [0, {Custom: 1}]}}, /the transaction failed on chain/],
    ['unconfirmed', {confirmed: false}, /is not confirmed yet.*do not pay again/],
    ['wrong destination', {to: randomAddress()}, /sends no SOL to this agent's wallet/],
    ['short amount', {lamports: PRICE - 1}, /sends 999999 lamports to the wallet but this call costs 1000000/],
    ['missing memo', {memo: null}, /has no memo/],
    ['memo with another nonce', {memo: 'ab'.repeat(16)}, /holds no nonce this agent issued/],
  ])('%s: a fresh 402 whose hint names the failed check', async (_row, tx, hint) => {
    const signature = await pay('hello', tx)
    const answer = await call({proof: signature})
    expect(answer.status).toBe(402)
    expect(answer.body.hint).toMatch(hint)
    expect(isChallenge(answer.body)).toBe(true)
    expect(answer.headers.get('x-payment-nonce')).toBe(answer.body.accepts[0].nonce)
  })

  it('RPC error: 503 chain_unavailable with Retry-After, never served; the proof works once the node is back', async () => {
    const signature = await pay()
    node.fail('rpc_error')
    const answer = await call({proof: signature})
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('5')
    expect(answer.body.error).toMatchObject({code: 'chain_unavailable', retry_after: 5})
    node.fail(null)
    expect((await call({proof: signature})).status).toBe(200)
  })

  it('RPC timeout: 503 chain_unavailable with Retry-After', async () => {
    const signature = await pay()
    node.fail('hang')
    const answer = await call({proof: signature})
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('5')
    expect(answer.body.error.code).toBe('chain_unavailable')
  })

  it('restart between challenge and proof: the proof buys the call on the new process; a used proof stays refused', async () => {
    const used = await pay('first')
    expect((await call({text: 'first', proof: used})).status).toBe(200)
    const signature = await pay('second')
    await server!.stop()
    url = await startAgent()
    expect(await call({text: 'second', proof: signature})).toMatchObject({status: 200, body: {paid_via: 'proof'}})
    expect((await call({text: 'another', proof: used})).status).toBe(402)
    expect((await call({text: 'another', proof: signature})).status).toBe(402)
  })

  it('a failing handler spends nothing: the allowance slot and the proof both still buy the call', async () => {
    failOnce.add('flaky')
    expect((await call({text: 'flaky', ip: '10.4.4.4'})).status).toBe(503)
    expect(await call({text: 'flaky', ip: '10.4.4.4'})).toMatchObject({status: 200, body: {paid_via: 'allowance'}})

    const signature = await pay('flaky-paid')
    failOnce.add('flaky-paid')
    expect(await call({text: 'flaky-paid', proof: signature})).toMatchObject({status: 503, body: {error: {code: 'upstream_down'}}})
    expect((await call({text: 'other', proof: signature})).status).toBe(402)
    expect(await call({text: 'flaky-paid', proof: signature})).toMatchObject({status: 200, body: {paid_via: 'proof'}})
  })

  it('prepaid: topup challenges, the signed challenge binds, the scan credits, one credit per call, 402 at zero', async () => {
    const topup = async (fields: Record<string, string>) => {
      const body = JSON.stringify(fields)
      const response = await fetch(url + '/v1/topup', {
        method: 'POST',
        headers: {'content-type': 'application/json', 'mesh-sig': signRequest({method: 'POST', path: '/v1/topup', body, privateKey: caller.privateKeyPem})},
        body,
      })
      return {status: response.status, body: (await response.json()) as Record<string, any>}
    }
    const pending = await topup({payer_address: payer})
    expect(pending).toMatchObject({status: 200, body: {payer_address: payer, pay_to: wallet, network: 'solana-devnet', lamports_per_credit: String(PRICE), credits: 0, bound: false}})
    const bound = await topup({payer_address: payer, payer_signature: payerWallet.signMessage(pending.body.challenge.message)})
    expect(bound).toMatchObject({status: 200, body: {payer_address: payer, bound: true, proven_by: 'signature'}})
    node.addTransaction({payer, to: wallet, lamports: 2 * PRICE})
    expect(await gate.scanDeposits()).toEqual({handled: 1, credited: 2})
    expect(await gate.scanDeposits()).toEqual({handled: 0, credited: 0})

    const ip = '10.5.5.5'
    expect(await call({signed: true, ip})).toMatchObject({status: 200, body: {paid_via: 'allowance'}})
    // issue 18: a v1 signature names no agent (it may be a call made for another one): it never spends credit.
    expect(await call({signed: 'v1', ip})).toMatchObject({status: 402})
    expect(gate.credits(caller.publicKey)).toBe(2)
    expect(await call({signed: true, ip})).toMatchObject({status: 200, body: {paid_via: 'credit'}})
    expect(await call({signed: true, ip})).toMatchObject({status: 200, body: {paid_via: 'credit'}})
    const empty = await call({signed: true, ip})
    expect(empty.status).toBe(402)
    expect(empty.body.hint).toContain('POST /v1/topup')
  })
})
