/** Reading a 402: both sources, each alone, every disagreement, unreadable and unsupported challenges; the readable text. */
import {describe, expect, it} from 'vitest'
import {skillUrl} from '../../../src/client/agent/call-agent.js'
import {isTransactionSignature} from '../../../src/client/agent/transaction-signature.js'
import {challengeJson, formatChallenge} from '../../../src/client/agent/challenge-format.js'
import {payUriProblem, readPaymentChallenge, solToLamports} from '../../../src/client/agent/challenge.js'
import {PAYMENT_HEADERS} from '../../../src/protocol/agent-card.js'
import {txSignature, walletAddress} from './skill-agent.js'

const wallet = walletAddress()
const nonce = 'n0nce+/=abc'
const offer = (extra: Record<string, unknown> = {}) => ({
  scheme: 'exact',
  network: 'solana-devnet',
  resource: '/v1/translate',
  payTo: wallet,
  asset: 'SOL',
  lamports: '2500000',
  nonce,
  chainPayUrl: `solana:${wallet}?amount=0.0025&memo=${encodeURIComponent(nonce)}&label=Translator`,
  ...extra,
})
const body = (offers: unknown[] = [offer()], extra: Record<string, unknown> = {}) => ({x402Version: 1, accepts: offers, hint: 'Pay, then retry.', ...extra})
const headers = (extra: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    [PAYMENT_HEADERS.network]: 'solana-devnet',
    [PAYMENT_HEADERS.address]: wallet,
    [PAYMENT_HEADERS.amount]: '2500000',
    [PAYMENT_HEADERS.nonce]: nonce,
    ...extra,
  }
  return new Headers(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined))
}
const read = (h: Headers, b: unknown) => readPaymentChallenge(h, b, 'The agent at http://a')
const failure = (h: Headers, b: unknown) => {
  try {
    read(h, b)
  } catch (error) {
    return error as {kind: string; code: string; message: string}
  }
  throw new Error('expected a refusal')
}

describe('readPaymentChallenge', () => {
  it('headers and body that agree: the offer, the price in lamports and SOL, its own pay URI', () => {
    const challenge = read(headers(), body())
    expect(challenge).toMatchObject({network: 'solana-devnet', address: wallet, lamports: 2_500_000n, sol: '0.0025', nonce, resource: '/v1/translate', hint: 'Pay, then retry.'})
    expect(challenge.offer).toEqual(offer())
    expect(challenge.payUrl).toBe(offer().chainPayUrl)
  })

  it('picks the offer the headers name among several, and skips other schemes', () => {
    const other = offer({nonce: 'other-nonce', chainPayUrl: undefined})
    const challenge = read(headers(), body([{scheme: 'upto', network: 'x'}, other, offer()]))
    expect(challenge.nonce).toBe(nonce)
  })

  it('headers alone: a pay URI built from them', () => {
    const challenge = read(headers(), undefined)
    expect(challenge).toMatchObject({lamports: 2_500_000n, offer: null, resource: null, hint: ''})
    expect(challenge.payUrl).toBe(`solana:${wallet}?amount=0.0025&memo=${encodeURIComponent(nonce)}`)
  })

  it('the body alone', () => {
    expect(read(new Headers(), body()).nonce).toBe(nonce)
  })

  it.each([
    ['network', {[PAYMENT_HEADERS.network]: 'solana'}],
    ['address', {[PAYMENT_HEADERS.address]: walletAddress()}],
    ['amount', {[PAYMENT_HEADERS.amount]: '2500001'}],
    ['nonce', {[PAYMENT_HEADERS.nonce]: 'another'}],
  ])('refuses headers and body that disagree on the %s', (field, extra) => {
    const error = failure(headers(extra), body())
    expect([error.kind, error.code]).toEqual(['payment_required', 'payment_challenge_mismatch'])
    expect(error.message).toContain(`the ${field}`)
  })

  it.each([
    ['another address', `solana:${walletAddress()}?amount=0.0025&memo=${encodeURIComponent(nonce)}`, /pays/],
    ['another amount', `solana:${wallet}?amount=0.025&memo=${encodeURIComponent(nonce)}`, /amount 0.025/],
    ['no memo', `solana:${wallet}?amount=0.0025`, /memo/],
    ['another scheme', `https://pay.example/?to=${wallet}`, /not a solana: URI/],
  ])('refuses a pay URI with %s', (_what, chainPayUrl, message) => {
    const error = failure(headers(), body([offer({chainPayUrl})]))
    expect(error.code).toBe('payment_challenge_mismatch')
    expect(error.message).toMatch(message)
  })

  it('refuses a 402 without a readable challenge, naming what is missing', () => {
    const error = failure(headers({[PAYMENT_HEADERS.nonce]: undefined}), {error: {code: 'payment_required', message: 'pay'}})
    expect(error.code).toBe('payment_challenge_invalid')
    expect(error.message).toContain('missing X-Payment-Nonce')
    expect(failure(new Headers(), body([offer({payTo: 'not-an-address'})])).message).toContain('payTo not-an-address is not a Solana address')
    expect(failure(new Headers(), body([offer({lamports: 2500000})])).message).toContain('not a positive integer string')
    expect(failure(new Headers(), body([offer({lamports: '0'})])).code).toBe('payment_challenge_invalid')
    expect(failure(headers({[PAYMENT_HEADERS.amount]: '1.5'}), undefined).code).toBe('payment_challenge_invalid')
  })

  it('refuses another x402 version or another asset as unsupported', () => {
    expect(failure(headers(), body(undefined, {x402Version: 2})).code).toBe('payment_challenge_unsupported')
    const usdc = failure(headers(), body([offer({asset: 'USDC'})]))
    expect(usdc.code).toBe('payment_challenge_unsupported')
    expect(usdc.message).toContain('USDC')
  })

  it("keeps the hint to one printable line", () => {
    expect(read(headers(), body(undefined, {hint: 'memo\nmissing\u001b[2J'})).hint).toBe('memo missing\uFFFD[2J')
  })
})

describe('amounts and pay URIs', () => {
  it('solToLamports reads exact decimal SOL only', () => {
    expect(solToLamports('0.0015')).toBe(1_500_000n)
    expect(solToLamports('2')).toBe(2_000_000_000n)
    expect(solToLamports('0.000000001')).toBe(1n)
    expect(solToLamports('0.0000000001')).toBeNull()
    expect(solToLamports('-1')).toBeNull()
  })
  it('payUriProblem decodes the memo without turning + into a space', () => {
    expect(payUriProblem(`solana:${wallet}?amount=0.0025&memo=a%2Bb`, {address: wallet, lamports: 2_500_000n, nonce: 'a+b'})).toBeNull()
    expect(payUriProblem(`solana:${wallet}?amount=0.00250&memo=a+b`, {address: wallet, lamports: 2_500_000n, nonce: 'a+b'})).toBeNull()
  })
})

describe('skill URLs and proofs', () => {
  it('keeps the base path and the query, drops a fragment and the trailing slash', () => {
    expect(skillUrl('https://a.example/base/?x=1#frag', 'translate').href).toBe('https://a.example/base/v1/translate?x=1')
    expect(skillUrl('http://a.example', 'echo').href).toBe('http://a.example/v1/echo')
  })
  it('a proof is base58 of 64 bytes', () => {
    expect(isTransactionSignature(txSignature())).toBe(true)
    expect(isTransactionSignature(walletAddress())).toBe(false)
    expect(isTransactionSignature('0OIl')).toBe(false)
  })
})

describe('formatChallenge', () => {
  const challenge = read(headers(), body())
  it('shows the price in lamports and SOL, the address, network, nonce, pay URI and the retry command', () => {
    const text = formatChallenge(challenge, {called: 'translate at https://a.example', retry: 'mesh call x translate --proof <signature>', proofRefused: false}).join('\n')
    expect(text).toContain('Payment required: translate at https://a.example costs 2500000 lamports (0.0025 SOL).')
    for (const part of [wallet, 'solana-devnet', nonce, offer().chainPayUrl, 'hint     Pay, then retry.', 'mesh call x translate --proof <signature>']) expect(text).toContain(part)
  })
  it('says when a proof was refused, with the hint', () => {
    const [first] = formatChallenge(challenge, {called: 'translate', retry: 'r', proofRefused: true})
    expect(first).toBe('Payment required: the proof was not accepted for translate (Pay, then retry.); a new challenge follows.')
  })
  it('JSON: lamports as a string', () => {
    expect(challengeJson(challenge)).toMatchObject({lamports: '2500000', sol: '0.0025', pay_url: offer().chainPayUrl, address: wallet})
  })
})
