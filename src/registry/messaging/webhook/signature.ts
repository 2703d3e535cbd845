import {createHmac, randomBytes, timingSafeEqual} from 'node:crypto'
import {WEBHOOK_SECRET_BYTES} from '../constants.js'

/** A fresh webhook secret: 32 random bytes, hex. */
export const newWebhookSecret = () => randomBytes(WEBHOOK_SECRET_BYTES).toString('hex')

const hmacHex = (secret: string, unixSeconds: number, rawBody: string | Uint8Array) =>
  createHmac('sha256', secret).update(`${unixSeconds}.`).update(rawBody).digest('hex')

/**
 * The `X-Mesh-Signature` value of one delivery.
 * DECISIONS "Webhook": `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 */
export function signWebhook(secret: string, rawBody: string | Uint8Array, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, unixSeconds, rawBody)}`
}

export interface VerifyWebhookOptions {
  /** Oldest accepted `t`, seconds either side of now (replay window). Default 300. */
  toleranceSeconds?: number
  /** Now in Unix seconds (tests). */
  nowSeconds?: number
}

/**
 * Checks an `X-Mesh-Signature` header the way a receiver should: the `t` is
 * recent and one of the `v1` values is the HMAC of `"<t>.<raw body>"`
 * (compared in constant time). Several `v1` entries are accepted so a secret
 * rotation could sign with both keys.
 */
export function verifyWebhookSignature(secret: string, header: string | undefined, rawBody: string | Uint8Array, options: VerifyWebhookOptions = {}): boolean {
  if (!header) return false
  let t: number | undefined
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && /^\d+$/.test(value ?? '')) t = Number(value)
    else if (key === 'v1' && value) signatures.push(value)
  }
  if (t === undefined || signatures.length === 0) return false
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false
  const expected = Buffer.from(hmacHex(secret, t, rawBody), 'hex')
  return signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'hex')
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
