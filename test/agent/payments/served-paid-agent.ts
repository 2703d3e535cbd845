/**
 * A paid agent over real HTTP for the issue-18 attack tests: createAgent +
 * createPayments served on port 0, a local Solana JSON-RPC node, an injected
 * payment clock, skill handlers that count their runs, and callers that sign
 * (Mesh-Sig) with their own keys or not at all.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect} from 'vitest'
import type {SkillContext} from '../../../src/agent/kit/types.js'
import {createPayments, type Payments} from '../../../src/agent/payments/gate.js'
import {generateIdentityKeyPair, type IdentityKeyPair} from '../../../src/identity/keys.js'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import {lamportsPricing, publicCard, textInputSchema} from '../../support/agent-card.js'
import {serveAgent, type ServedAgent} from '../../support/served-agent.js'
import {randomAddress, startSolanaRpc, type SolanaRpcServer} from '../../support/solana-rpc.js'

export const PRICE = 1_000_000
export const MINUTE = 60_000

const card = publicCard({
  name: 'Paid Pair',
  url: 'https://paid-pair.example',
  description: 'Two paid skills at 0.001 SOL a call, no free calls.',
  protocols: ['http', 'x402'],
  pricing: lamportsPricing(PRICE),
  skills: ['echo', 'shout'].map((id) => ({
    id,
    name: id,
    description: `${id}: answers {text}. 0.001 SOL per call.`,
    examples: [`${id} "hi".`, '{"text": "hi"}'],
    inputSchema: textInputSchema(),
  })),
})

/** One answer as the wire carried it. */
export interface WireAnswer {
  status: number
  /** The raw body text. */
  text: string
  json: any
  nonce: string | null
}

export interface CallOptions {
  /** Signs with this key; unsigned without it. */
  signer?: IdentityKeyPair
  proof?: string
  /** The raw body (default `{"text": "hello"}`). */
  body?: string
}

export interface PaidAgent {
  url: string
  node: SolanaRpcServer
  gate: Payments
  wallet: string
  /** Runs of each skill's handler, and the caller key each run saw. */
  runs: Array<{skill: string; text: string; caller: string | null}>
  /** When set, handlers wait for it before answering (to hold a paid call running). */
  hold: Promise<void> | null
  /** Requests carrying X-Payment-Proof the server has received so far. */
  proofRequests(): number
  now(): number
  advance(ms: number): void
  call(skill: string, options?: CallOptions): Promise<WireAnswer>
  /** `POST /v1/topup` with these fields, signed by `signer`. */
  topup(signer: IdentityKeyPair, fields: Record<string, string>): Promise<{status: number; json: any}>
  /** The 402 for this call, paid on the node as its hint says (from `payer`); returns the signature. */
  pay(skill: string, options?: CallOptions, payer?: string): Promise<string>
  stop(): Promise<void>
}

export const newCaller = (): IdentityKeyPair => generateIdentityKeyPair()

export async function startPaidAgent(options: {maxStoredAnswerBytes?: number} = {}): Promise<PaidAgent> {
  let nowMs = Date.UTC(2026, 5, 1, 12)
  const clock = () => nowMs
  const node = await startSolanaRpc({clock})
  const dataDir = mkdtempSync(join(tmpdir(), 'mesh-agent-one-answer-'))
  const wallet = randomAddress()
  const gate = createPayments({wallet, rpcUrl: node.url, dataDir, freePerDay: 0, card, clock, rpcTimeoutMs: 2000, ...options})
  let proofRequests = 0
  const agent: PaidAgent = {} as PaidAgent
  const handler = (skill: string) => async (input: {text: string}, ctx: SkillContext) => {
    agent.runs.push({skill, text: input.text, caller: ctx.caller.pubkey})
    if (agent.hold) await agent.hold
    return {skill, text: input.text, run: agent.runs.length, paid_via: ctx.payment?.via ?? null}
  }
  const served: ServedAgent = await serveAgent({card, payments: gate, skills: {echo: handler('echo'), shout: handler('shout')}})
  served.server.prependListener('request', (request) => {
    if (request.headers['x-payment-proof']) proofRequests += 1
  })

  async function call(skill: string, options: CallOptions = {}): Promise<WireAnswer> {
    const path = `/v1/${skill}`
    const body = options.body ?? '{"text": "hello"}'
    const headers: Record<string, string> = {'content-type': 'application/json'}
    // Each request is signed afresh (its own Mesh-Sig nonce), as a caller's retry is.
    if (options.signer) headers['mesh-sig'] = signRequest({method: 'POST', path, body, privateKey: options.signer.privateKeyPem, audience: served.url})
    if (options.proof) headers['x-payment-proof'] = options.proof
    const response = await fetch(served.url + path, {method: 'POST', headers, body})
    const text = await response.text()
    return {status: response.status, text, json: JSON.parse(text), nonce: response.headers.get('x-payment-nonce')}
  }

  return Object.assign(agent, {
    url: served.url,
    node,
    gate,
    wallet,
    runs: [],
    hold: null,
    proofRequests: () => proofRequests,
    now: clock,
    advance(ms: number) {
      nowMs += ms
    },
    call,
    async topup(signer: IdentityKeyPair, fields: Record<string, string>) {
      const body = JSON.stringify(fields)
      const mesh = signRequest({method: 'POST', path: '/v1/topup', body, privateKey: signer.privateKeyPem, audience: served.url})
      const response = await fetch(served.url + '/v1/topup', {method: 'POST', headers: {'content-type': 'application/json', 'mesh-sig': mesh}, body})
      return {status: response.status, json: await response.json()}
    },
    async pay(skill: string, options: CallOptions = {}, payer = randomAddress()) {
      const challenge = await call(skill, {...options, proof: undefined})
      expect(challenge.status).toBe(402)
      return node.addTransaction({payer, to: wallet, lamports: PRICE, memo: challenge.nonce})
    },
    async stop() {
      await served.stop()
      await node.close()
      rmSync(dataDir, {recursive: true, force: true})
    },
  })
}
