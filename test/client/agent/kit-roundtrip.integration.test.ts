/**
 * callAgent against the real kit (createAgent + createPayments) and a local
 * Solana JSON-RPC node: the kit verifies the caller's Mesh-Sig, its 402 passes
 * the caller's header/body/pay-URI checks, a transaction paying the nonce
 * buys the call, a proof with another memo gets a fresh challenge whose hint
 * the caller shows, and the kit's 400 reaches the caller with its field.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {createPayments} from '../../../src/agent/payments/index.js'
import {callAgent} from '../../../src/client/agent/call-agent.js'
import type {HostedServer} from '../../../src/http/host.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {silentLogger} from '../../../src/lib/log.js'
import {lamportsPricing, publicCard} from '../../support/agent-card.js'
import {caught} from '../../support/caught.js'
import {serveAgent} from '../../support/served-agent.js'
import {randomAddress, startSolanaRpc, type SolanaRpcServer} from '../../support/solana-rpc.js'

const PRICE = 2_000_000n
const card = publicCard({
  name: 'Roundtrip Translator',
  description: 'Translates short texts; one call a day free, then 0.002 SOL a call.',
  protocols: ['http', 'x402'],
  pricing: lamportsPricing(Number(PRICE)),
  skills: [
    {
      id: 'translate',
      name: 'Translate',
      description: 'Translates text.',
      examples: ['Translate hello to French.', '{"text": "hello", "to": "fr"}'],
      inputSchema: {type: 'object', required: ['text', 'to'], properties: {text: {type: 'string'}, to: {type: 'string', minLength: 2}}},
    },
  ],
})

let node: SolanaRpcServer
let host: HostedServer
const wallet = randomAddress()
const payer = randomAddress()
const keys = generateIdentityKeyPair()

beforeAll(async () => {
  node = await startSolanaRpc()
  const payments = createPayments({wallet, rpcUrl: node.url, network: 'solana-devnet', freePerDay: 1, card, rpcTimeoutMs: 2000})
  host = await serveAgent({
    card,
    payments,
    logger: silentLogger,
    skills: {
      translate: (input: {text: string; to: string}, ctx: SkillContext) => ({text: input.to === 'fr' && input.text === 'hello' ? 'bonjour' : input.text, caller: ctx.caller.pubkey, via: ctx.payment?.via ?? null}),
    },
  })
})
afterAll(async () => {
  await host?.stop()
  await node?.close()
})

const translate = (extra: {proof?: string; input?: unknown} = {}) =>
  callAgent({agent: host.url, skill: 'translate', input: extra.input ?? {text: 'hello', to: 'fr'}, privateKey: keys.privateKeyPem, proof: extra.proof})

describe('callAgent against the kit', () => {
  it('a signed call within the free allowance is served, the kit seeing the caller key', async () => {
    expect(await translate()).toMatchObject({status: 'ok', result: {text: 'bonjour', caller: keys.publicKey}, signer: keys.publicKey})
  })

  it("the kit's 402 reads as a consistent challenge: headers, body and pay URI agree", async () => {
    const answer = await translate()
    if (answer.status !== 'payment_required') throw new Error(`expected a 402, got ${answer.status}`)
    expect(answer.challenge).toMatchObject({network: 'solana-devnet', address: wallet, lamports: PRICE, sol: '0.002', resource: '/v1/translate'})
    expect(answer.challenge.payUrl).toMatch(new RegExp(`^solana:${wallet}\\?amount=0\\.002&memo=${answer.challenge.nonce}`))
    expect(answer.challenge.hint).not.toBe('')
  })

  it('paying the nonce buys the call; a proof whose memo names no issued nonce gets a fresh challenge', async () => {
    const first = await translate()
    if (first.status !== 'payment_required') throw new Error('expected a 402')
    const wrongMemo = node.addTransaction({payer, to: wallet, lamports: PRICE, memo: 'not-the-nonce'})
    const refused = await translate({proof: wrongMemo})
    expect(refused).toMatchObject({status: 'payment_required', proofRefused: true})
    expect(refused.status === 'payment_required' && refused.challenge.hint).toContain('memo')

    const paid = node.addTransaction({payer, to: wallet, lamports: PRICE, memo: first.challenge.nonce})
    const answer = await translate({proof: paid})
    expect(answer).toMatchObject({status: 'ok', result: {text: 'bonjour', via: 'proof'}})
    // A caller that lost the answer retries with the same proof (re-signed, same body) and gets the same answer again.
    expect(await translate({proof: paid})).toMatchObject({status: 'ok', result: answer.status === 'ok' ? answer.result : null})
  })

  it('a proof pays for the call that got the 402: the same proof with another input gets a fresh challenge saying so', async () => {
    const first = await translate({input: {text: 'cat', to: 'fr'}})
    if (first.status !== 'payment_required') throw new Error('expected a 402')
    const paid = node.addTransaction({payer, to: wallet, lamports: PRICE, memo: first.challenge.nonce})
    const other = await translate({proof: paid, input: {text: 'dog', to: 'fr'}})
    expect(other).toMatchObject({status: 'payment_required', proofRefused: true})
    expect(other.status === 'payment_required' && other.challenge.hint).toContain('another body')
    expect(await translate({proof: paid, input: {text: 'cat', to: 'fr'}})).toMatchObject({status: 'ok', result: {text: 'cat'}})
  })

  it("the kit's 400 reaches the caller with its code and field, before any payment step", async () => {
    const error = await caught(translate({input: {text: 'hello'}}))
    expect([error.kind, error.code, error.details?.status]).toEqual(['invalid', 'invalid_input', 400])
    expect(error.field).toBeTruthy()
  })
})
