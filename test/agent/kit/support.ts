/** Shared fixtures for the agent kit's tests: a card, an agent served through serve() on port 0, signed fetches, a fake gate. */
import {generateIdentityKeyPair, type IdentityKeyPair} from '../../../src/identity/keys.js'
import {signRequest} from '../../../src/identity/mesh-sig.js'
import type {Logger} from '../../../src/lib/log.js'
import type {CardSkill, PublicCard} from '../../../src/protocol/agent-card.js'
import type {CreateAgentOptions} from '../../../src/agent/kit/types.js'
import type {GateDecision, PaidCall, PaymentChallenge, PaymentGate, PaymentReceipt, TopupRequest} from '../../../src/agent/payments/types.js'
import {echoSkill as buildEchoSkill, publicCard} from '../../support/agent-card.js'
import {serveAgent as serveWithHost, type ServedAgent} from '../../support/served-agent.js'

export type {ServedAgent}

export const echoSkill: CardSkill = buildEchoSkill()

export function testCard(overrides: Partial<PublicCard> = {}): PublicCard {
  return publicCard({
    name: 'Kit Test Agent',
    url: 'https://agent.example.com',
    version: '1.2.3',
    description: 'An agent built with the kit, for tests.',
    skills: [echoSkill],
    ...overrides,
  })
}

export const echoHandler = (input: {text: string}) => ({text: input.text})

/** The kit's test agent (testCard, the echo handler) unless `options` say otherwise; the host logs to `hostLogger` if given. */
export async function serveAgent(options: Partial<CreateAgentOptions> & {hostLogger?: Logger} = {}): Promise<ServedAgent> {
  const {hostLogger, ...agentOptions} = options
  return serveWithHost({card: testCard(), skills: {echo: echoHandler}, ...agentOptions}, {logger: hostLogger})
}

export const keys: IdentityKeyPair = generateIdentityKeyPair()

/** POSTs JSON text, signed with `keys` (or the given signature header) when `sign` is set. */
export async function post(
  url: string,
  path: string,
  body: string,
  options: {sign?: boolean | string; headers?: Record<string, string>} = {},
): Promise<Response> {
  const headers: Record<string, string> = {'content-type': 'application/json', ...options.headers}
  if (options.sign === true) headers['mesh-sig'] = signRequest({method: 'POST', path, body, privateKey: keys.privateKeyPem})
  else if (typeof options.sign === 'string') headers['mesh-sig'] = options.sign
  return fetch(url + path, {method: 'POST', headers, body})
}

/** What the fake gate saw and did. */
export interface GateLog {
  admitted: PaidCall[]
  commits: number
  releases: number
  topups: TopupRequest[]
  started: number
  closed: number
}

/**
 * A PaymentGate implementing the real interface, scripted per call: the next
 * decision is `next(call)`; default admits via the allowance.
 */
export function fakeGate(next: (call: PaidCall) => GateDecision | Promise<GateDecision> = () => admit({via: 'allowance', allowanceLeft: 4}), withTopup = true) {
  const log: GateLog = {admitted: [], commits: 0, releases: 0, topups: [], started: 0, closed: 0}
  const gate: PaymentGate = {
    async admit(call) {
      log.admitted.push(call)
      const decision = await next(call)
      if (decision.kind === 'admitted') {
        const hold = decision.hold
        decision.hold = {
          receipt: hold.receipt,
          async commit(answer) {
            log.commits++
            await hold.commit(answer)
          },
          async release() {
            log.releases++
            await hold.release()
          },
        }
      }
      return decision
    },
    start() {
      log.started++
    },
    async close() {
      log.closed++
    },
  }
  if (withTopup) {
    gate.topup = async (request) => {
      log.topups.push(request)
      return {payer_address: request.payerAddress, pay_to: 'Wallet1111', credits: 0}
    }
  }
  return {gate, log}
}

export function admit(receipt: PaymentReceipt): GateDecision {
  return {kind: 'admitted', hold: {receipt, async commit() {}, async release() {}}}
}

export function challenge(nonce = 'nonce-123456'): GateDecision {
  const c: PaymentChallenge = {
    headers: {'X-Payment-Network': 'solana-devnet', 'X-Payment-Address': 'Wallet1111', 'X-Payment-Amount': '1500', 'X-Payment-Nonce': nonce},
    body: {
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: 'solana-devnet',
          resource: '/v1/paid',
          payTo: 'Wallet1111',
          asset: 'SOL',
          lamports: '1500',
          nonce,
          chainPayUrl: `solana:Wallet1111?amount=0.0000015&memo=${nonce}&label=Kit%20Test%20Agent`,
        },
      ],
      hint: 'Pay 1500 lamports with the nonce as memo, then retry with X-Payment-Proof.',
    },
  }
  return {kind: 'challenge', challenge: c}
}

/** A response's JSON body, typed loosely for assertions. */
export const readJson = (response: Response): Promise<any> => response.json()
