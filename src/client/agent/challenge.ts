/**
 * Reading an agent's 402 (spec: Pay-per-call wire flow 2, Payment challenge;
 * DECISIONS: Paid calls). The challenge comes twice — the four `X-Payment-*`
 * headers and the `{x402Version, accepts, hint}` body — and a caller about
 * to move money only trusts it when both say the same thing, and when the
 * Solana Pay URI pays the address, amount and memo shown. A challenge that
 * contradicts itself is refused as an error, never shown as something to pay.
 */
import {isAddress} from '@solana/addresses'
import {MeshError} from '../../lib/errors.js'
import {lamportsToSol, LAMPORTS_PER_SOL, NATIVE_ASSET, PAYMENT_HEADERS, X402_VERSION, type PaymentOffer} from '../../protocol/agent-card.js'
import {SOLANA_PAY_SCHEME, solanaPayUrl} from '../../protocol/solana-pay.js'
import {printable} from '../printable.js'
import {CHALLENGE_NONCE_PATTERN, NETWORK_PATTERN} from './constants.js'

/** What a caller needs to pay for one call, read from a 402 and checked. */
export interface PaymentChallenge {
  /** e.g. `solana-devnet`. */
  network: string
  /** The agent wallet to pay (a Solana address). */
  address: string
  /** The price, integer lamports. */
  lamports: bigint
  /** The same price in SOL, exact (`lamportsToSol`). */
  sol: string
  /** Put it in the transaction memo. */
  nonce: string
  /** The skill path the offer is for (`/v1/<skill>`), when the body names it. */
  resource: string | null
  /** The body's offer the headers agree with; null when the agent sent headers only. */
  offer: PaymentOffer | null
  /** The agent's instruction (or, after a refused proof, what failed); printable, may be empty. */
  hint: string
  /** A Solana Pay URI paying `lamports` to `address` with memo `nonce` (the offer's chainPayUrl when it agrees). */
  payUrl: string
}

const MAX_HINT = 500

const challengeError = (code: string, message: string) => new MeshError('payment_required', code, message, {details: {status: 402}})

const shownValue = (value: unknown) => printable(String(value)).slice(0, 80)

/** Integer lamports from a decimal SOL amount (`0.0015` → 1500000n); null when it is not an exact lamport amount. */
export function solToLamports(text: string): bigint | null {
  const match = /^(\d{1,12})(?:\.(\d{1,9}))?$/.exec(text)
  if (!match) return null
  return BigInt(match[1]) * LAMPORTS_PER_SOL + BigInt((match[2] ?? '').padEnd(9, '0'))
}

const lamportsOf = (value: unknown): bigint | null => (typeof value === 'string' && /^\d{1,20}$/.test(value) ? BigInt(value) : null)

/** What is wrong with one `exact` offer of the body, or null. */
function offerProblem(offer: Record<string, unknown>): string | null {
  if (typeof offer.network !== 'string' || !NETWORK_PATTERN.test(offer.network)) return `network ${shownValue(offer.network)} is not a network name`
  if (typeof offer.payTo !== 'string' || !isAddress(offer.payTo)) return `payTo ${shownValue(offer.payTo)} is not a Solana address`
  const lamports = lamportsOf(offer.lamports)
  if (lamports === null || lamports <= 0n) return `lamports ${shownValue(offer.lamports)} is not a positive integer string`
  if (typeof offer.nonce !== 'string' || !CHALLENGE_NONCE_PATTERN.test(offer.nonce)) return `nonce ${shownValue(offer.nonce)} is not a nonce`
  if (offer.resource !== undefined && typeof offer.resource !== 'string') return 'resource is not a string'
  if (offer.chainPayUrl !== undefined && typeof offer.chainPayUrl !== 'string') return 'chainPayUrl is not a string'
  return null
}

/** The challenge headers that are present (trimmed). */
function challengeHeaders(headers: Headers) {
  const read = (name: string) => headers.get(name)?.trim() || undefined
  return {network: read(PAYMENT_HEADERS.network), address: read(PAYMENT_HEADERS.address), amount: read(PAYMENT_HEADERS.amount), nonce: read(PAYMENT_HEADERS.nonce)}
}
type ChallengeHeaders = ReturnType<typeof challengeHeaders>

/** The first field on which an offer and the headers disagree, as words; null when they agree on every header sent. */
function disagreement(offer: PaymentOffer, sent: ChallengeHeaders): string | null {
  if (sent.network !== undefined && sent.network !== offer.network) return `the network (header ${shownValue(sent.network)}, body ${offer.network})`
  if (sent.address !== undefined && sent.address !== offer.payTo) return `the address (header ${shownValue(sent.address)}, body ${offer.payTo})`
  if (sent.amount !== undefined && lamportsOf(sent.amount) !== BigInt(offer.lamports)) return `the amount (header ${shownValue(sent.amount)}, body ${offer.lamports} lamports)`
  if (sent.nonce !== undefined && sent.nonce !== offer.nonce) return `the nonce (header ${shownValue(sent.nonce)}, body ${offer.nonce})`
  return null
}

/** Query parameters of a URI, percent-decoded without turning `+` into a space (base64 nonces carry `+`). */
function rawQuery(uri: string): Map<string, string> {
  const params = new Map<string, string>()
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1).split('#')[0] : ''
  for (const pair of query.split('&')) {
    if (!pair) continue
    const [name, value = ''] = pair.split('=', 2)
    try {
      params.set(decodeURIComponent(name), decodeURIComponent(value))
    } catch {
      params.set(name, value)
    }
  }
  return params
}

/** What the Solana Pay URI would pay differently from the challenge, or null when it pays exactly that. */
export function payUriProblem(uri: string, expected: {address: string; lamports: bigint; nonce: string}): string | null {
  if (!uri.startsWith(SOLANA_PAY_SCHEME)) return `it is not a ${SOLANA_PAY_SCHEME} URI`
  const recipient = uri.slice(SOLANA_PAY_SCHEME.length).split(/[?#]/)[0]
  if (recipient !== expected.address) return `it pays ${shownValue(recipient)}, not ${expected.address}`
  const params = rawQuery(uri)
  const amount = params.get('amount')
  if (amount === undefined || solToLamports(amount) !== expected.lamports) return `its amount ${shownValue(amount ?? '(none)')} SOL is not ${lamportsToSol(expected.lamports)} SOL`
  if (params.get('memo') !== expected.nonce) return `its memo ${shownValue(params.get('memo') ?? '(none)')} is not the nonce ${expected.nonce}`
  return null
}

/**
 * Reads and checks a 402 answer. Throws a MeshError (kind `payment_required`)
 * when no challenge can be read (`payment_challenge_invalid`), when the
 * headers, the body and the pay URI disagree (`payment_challenge_mismatch`),
 * or when the body speaks another x402 version or asset
 * (`payment_challenge_unsupported`). `where` names the agent in messages.
 */
export function readPaymentChallenge(headers: Headers, body: unknown, where: string): PaymentChallenge {
  const sent = challengeHeaders(headers)
  const record = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined
  const accepts = Array.isArray(record?.accepts) ? (record.accepts as unknown[]) : undefined
  if (accepts && record?.x402Version !== X402_VERSION) {
    throw challengeError('payment_challenge_unsupported', `${where} answered 402 with x402Version ${shownValue(record?.x402Version)}; mesh reads version ${X402_VERSION}`)
  }
  const exact = (accepts ?? []).filter((offer): offer is Record<string, unknown> => Boolean(offer) && typeof offer === 'object' && (offer as {scheme?: unknown}).scheme === 'exact')
  // The kit challenges in lamports only (DECISIONS: Paid calls); an offer in another asset is not one we can show as lamports.
  const native = exact.filter((offer) => offer.asset === undefined || offer.asset === NATIVE_ASSET)
  if (exact.length > 0 && native.length === 0) {
    throw challengeError('payment_challenge_unsupported', `${where} answered 402 asking for ${shownValue(exact[0].asset)}; mesh pays ${NATIVE_ASSET} in lamports only`)
  }
  const problems = native.map(offerProblem)
  const offers = native.filter((_, i) => problems[i] === null) as unknown as PaymentOffer[]
  if (native.length > 0 && offers.length === 0) throw challengeError('payment_challenge_invalid', `${where} answered 402 with an offer mesh cannot read: ${problems[0]}`)

  let offer: PaymentOffer | null = null
  let challenge: Omit<PaymentChallenge, 'hint' | 'payUrl' | 'sol'>
  if (offers.length > 0) {
    offer = offers.find((candidate) => disagreement(candidate, sent) === null) ?? null
    if (!offer) {
      throw challengeError('payment_challenge_mismatch', `${where} answered 402 with headers and a body that disagree on ${disagreement(offers[0], sent)}; not paying a challenge that contradicts itself`)
    }
    challenge = {network: offer.network, address: offer.payTo, lamports: BigInt(offer.lamports), nonce: offer.nonce, resource: offer.resource ?? null, offer}
  } else {
    const missing = (Object.keys(sent) as Array<keyof ChallengeHeaders>).filter((name) => sent[name] === undefined)
    if (missing.length > 0) {
      const names = missing.map((name) => PAYMENT_HEADERS[name]).join(', ')
      throw challengeError('payment_challenge_invalid', `${where} answered 402 without a payment challenge mesh can read (no offer in the body; missing ${names})`)
    }
    const fromHeaders = {network: sent.network!, payTo: sent.address!, lamports: sent.amount!, nonce: sent.nonce!}
    const problem = offerProblem(fromHeaders)
    if (problem) throw challengeError('payment_challenge_invalid', `${where} answered 402 with challenge headers mesh cannot read: ${problem}`)
    challenge = {network: fromHeaders.network, address: fromHeaders.payTo, lamports: BigInt(fromHeaders.lamports), nonce: fromHeaders.nonce, resource: null, offer: null}
  }

  // The agent gave no URI: the one the kit writes (DECISIONS chainPayUrl form), without a label.
  let payUrl = solanaPayUrl({recipient: challenge.address, lamports: challenge.lamports, memo: challenge.nonce})
  if (offer?.chainPayUrl) {
    const problem = payUriProblem(offer.chainPayUrl, challenge)
    if (problem) throw challengeError('payment_challenge_mismatch', `${where} answered 402 with a payment URI that disagrees with the challenge: ${problem}`)
    payUrl = offer.chainPayUrl
  }
  const hint = typeof record?.hint === 'string' ? printable(record.hint).replace(/\s+/g, ' ').trim().slice(0, MAX_HINT) : ''
  return {...challenge, sol: lamportsToSol(challenge.lamports), hint, payUrl}
}
