/**
 * A small agent on node:http for the caller's tests (`callAgent`, `mesh call`):
 * a free `echo` skill, a paid `paid` skill answering the spec's 402 (headers
 * and body), and a `strict` skill answering 400 `invalid_input`. Every signed
 * request is verified with the identity layer's verifyMeshSig on the path and
 * raw body as received, so a test proves signing end to end; an invalid
 * signature answers 401 with the verifier's code. Requests are recorded.
 */
import {randomBytes} from 'node:crypto'
import type {IncomingHttpHeaders} from 'node:http'
import {listen} from '../../../src/http/listen.js'
import {normalizeAudience} from '../../../src/identity/audience.js'
import {base58Encode} from '../../../src/identity/base58.js'
import {verifyMeshSig} from '../../../src/identity/mesh-sig.js'
import {createMemoryNonceStore} from '../../../src/identity/nonce-store.js'
import {isMeshError} from '../../../src/lib/errors.js'
import {lamportsToSol, PAYMENT_HEADERS} from '../../../src/protocol/agent-card.js'
import {lamportsPricing, publicCard} from '../../support/agent-card.js'

/** A random Solana address (base58 of 32 bytes). */
export const walletAddress = () => base58Encode(randomBytes(32))
/** A random transaction signature (base58 of 64 bytes). */
export const txSignature = () => base58Encode(randomBytes(64))

export interface RecordedCall {
  method: string
  /** Path with query, as received. */
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface Challenge {
  headers: Record<string, string>
  body: {x402Version: number; accepts: Array<Record<string, unknown>>; hint: string}
}

export interface SkillAgentOptions {
  /** Path prefix the agent lives under, e.g. `/tenant/a1`. */
  basePath?: string
  wallet?: string
  lamports?: bigint
  network?: string
  /** Changes a challenge before it is sent (to make headers and body disagree). */
  tamper?: (challenge: Challenge) => void
  /** Milliseconds clock of the verifier (a skewed one makes signatures expire). */
  clock?: () => number
}

export interface SkillAgent {
  /** Base URL with basePath, no trailing slash. */
  url: string
  wallet: string
  lamports: bigint
  /** Proofs the paid skill accepts. */
  validProofs: Set<string>
  /** Nonces issued, in order. */
  nonces: string[]
  calls: RecordedCall[]
  close(): Promise<void>
}

export async function startSkillAgent(options: SkillAgentOptions = {}): Promise<SkillAgent> {
  const basePath = options.basePath ?? ''
  const wallet = options.wallet ?? walletAddress()
  const lamports = options.lamports ?? 1_500_000n
  const network = options.network ?? 'solana-devnet'
  const nonces = createMemoryNonceStore()
  const agent = {wallet, lamports, validProofs: new Set<string>(), nonces: [] as string[], calls: [] as RecordedCall[]}
  let baseUrl = ''

  const card = () =>
    publicCard({
      name: 'Caller test agent',
      url: baseUrl,
      description: 'Echoes, charges and validates, for the caller tests.',
      protocols: ['http', 'x402'],
      skills: [
        {id: 'echo', name: 'Echo', description: 'Echoes the body.', examples: ['Echo hello.', '{"text":"hello"}']},
        {id: 'paid', name: 'Paid', description: 'Costs lamports.', examples: ['Pay.', '{"text":"hi"}'], pricing: lamportsPricing(Number(lamports), network)},
        {id: 'strict', name: 'Strict', description: 'Needs text.', examples: ['Check.', '{"text":"x"}']},
      ],
    })

  const challenge = (proofSent: boolean, resource: string): Challenge => {
    const nonce = randomBytes(12).toString('base64url')
    agent.nonces.push(nonce)
    const challenge: Challenge = {
      headers: {[PAYMENT_HEADERS.network]: network, [PAYMENT_HEADERS.address]: wallet, [PAYMENT_HEADERS.amount]: String(lamports), [PAYMENT_HEADERS.nonce]: nonce},
      body: {
        x402Version: 1,
        accepts: [
          {scheme: 'exact', network, resource, payTo: wallet, asset: 'SOL', lamports: String(lamports), nonce, chainPayUrl: `solana:${wallet}?amount=${lamportsToSol(lamports)}&memo=${nonce}&label=Caller%20test%20agent`},
        ],
        hint: proofSent ? 'The proof was not found on the chain; pay again with the new nonce.' : `Pay ${lamportsToSol(lamports)} SOL with the nonce as memo, then retry with X-Payment-Proof.`,
      },
    }
    options.tamper?.(challenge)
    return challenge
  }

  const server = await listen(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks)
    const url = req.url ?? '/'
    agent.calls.push({method: req.method ?? '', url, headers: req.headers, body: raw.toString('utf8')})
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {'content-type': 'application/json', ...headers})
      res.end(JSON.stringify(body))
    }
    const path = url.split('?')[0]
    if (!path.startsWith(basePath + '/')) return send(404, {error: {code: 'not_found', message: 'no such route'}})
    const route = path.slice(basePath.length)
    if (req.method === 'GET' && route === '/.well-known/agent.json') return send(200, card())
    if (req.method !== 'POST' || !route.startsWith('/v1/')) return send(404, {error: {code: 'not_found', message: 'no such route'}})

    let signer: string | null = null
    const header = req.headers['mesh-sig']
    if (typeof header === 'string') {
      try {
        signer = (await verifyMeshSig({header, method: 'POST', path: url, body: raw, nonces, clock: options.clock, audience: normalizeAudience(baseUrl)})).pubkey
      } catch (error) {
        if (isMeshError(error)) return send(401, {error: {code: error.code, message: error.message}})
        throw error
      }
    }
    let input: Record<string, unknown>
    try {
      input = JSON.parse(raw.toString('utf8'))
    } catch {
      return send(400, {error: {code: 'invalid_json', message: 'The body is not JSON'}})
    }
    const skill = route.slice('/v1/'.length)
    if (skill === 'echo') return send(200, {echo: input, signer, bearer: req.headers.authorization !== undefined})
    if (skill === 'strict') {
      if (typeof input?.text !== 'string') return send(400, {error: {code: 'invalid_input', message: 'text must be a string', field: 'text'}})
      return send(200, {length: input.text.length})
    }
    if (skill === 'paid') {
      const proof = req.headers['x-payment-proof']
      if (typeof proof === 'string' && agent.validProofs.has(proof)) return send(200, {paid: true, signer, tx_proof: proof})
      const issued = challenge(typeof proof === 'string', `/v1/paid`)
      return send(402, issued.body, issued.headers)
    }
    return send(404, {error: {code: 'unknown_skill', message: `No skill "${skill}"`}})
  })
  baseUrl = server.url + basePath
  return {...agent, url: baseUrl, close: () => server.close()}
}
