import {createHmac} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {webhookBackoffMs} from '../../../src/registry/messaging/webhook/backoff.js'
import {newWebhookSecret, signWebhook, verifyWebhookSignature} from '../../../src/registry/messaging/webhook/signature.js'
import {checkWebhookUrl} from '../../../src/registry/messaging/webhook/url.js'

describe('webhook signature', () => {
  const secret = 'a'.repeat(64)
  const body = '{"id":1,"from":"ann","payload":{"x":"é"},"ts":"2026-06-01T12:00:00.000Z"}'

  it('is t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")> (DECISIONS)', () => {
    const expected = createHmac('sha256', secret).update(`1780315200.${body}`).digest('hex')
    expect(signWebhook(secret, body, 1780315200)).toBe(`t=1780315200,v1=${expected}`)
  })

  it('verifies its own signature and refuses a changed body, a wrong secret, an old t and junk', () => {
    const header = signWebhook(secret, body, 1000)
    expect(verifyWebhookSignature(secret, header, body, {nowSeconds: 1010})).toBe(true)
    expect(verifyWebhookSignature(secret, header, Buffer.from(body), {nowSeconds: 1010})).toBe(true)
    expect(verifyWebhookSignature(secret, header, body.replace('ann', 'eve'), {nowSeconds: 1010})).toBe(false)
    expect(verifyWebhookSignature('b'.repeat(64), header, body, {nowSeconds: 1010})).toBe(false)
    expect(verifyWebhookSignature(secret, header, body, {nowSeconds: 1000 + 301})).toBe(false)
    for (const junk of [undefined, '', 't=1000', 'v1=abc', 't=x,v1=00', `t=1000,v1=${'0'.repeat(63)}`]) {
      expect(verifyWebhookSignature(secret, junk, body, {nowSeconds: 1000})).toBe(false)
    }
  })

  it('makes secrets of 32 random bytes in hex', () => {
    const a = newWebhookSecret()
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(newWebhookSecret()).not.toBe(a)
  })
})

describe('webhook backoff', () => {
  it('doubles from 1 s up to one hour, within ±20 % jitter', () => {
    const middle = (n: number) => webhookBackoffMs(n, () => 0.5)
    expect([1, 2, 3, 4].map(middle)).toEqual([1000, 2000, 4000, 8000])
    expect(middle(13)).toBe(3_600_000)
    expect(middle(40)).toBe(3_600_000)
    expect(webhookBackoffMs(3, () => 0)).toBe(3200)
    expect(webhookBackoffMs(3, () => 1)).toBe(4800)
  })
})

describe('webhook URL check', () => {
  it('accepts https URLs and drops the fragment', () => {
    expect(checkWebhookUrl('https://agent.example.com/hook?x=1#frag', false)).toBe('https://agent.example.com/hook?x=1')
  })
  it('refuses what can never be delivered, naming the field', () => {
    for (const bad of [42, '', 'not a url', 'ftp://x.example/', 'http://agent.example.com/', 'https://u:p@agent.example.com/', 'https://127.0.0.1/', 'https://[::1]/', 'https://10.1.2.3/h', 'https://localhost/', 'https://x.example/' + 'a'.repeat(2100)]) {
      expect(() => checkWebhookUrl(bad, false)).toThrow(expect.objectContaining({code: 'invalid_webhook_url', field: 'webhook.url'}))
    }
  })
  it('allows http and private addresses in development mode', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8080/hook', true)).toBe('http://127.0.0.1:8080/hook')
  })
})
