/** callAgent against a real agent on a port: signing proven by the agent's verifier, 402s read from headers and body, proofs, errors. */
import {afterEach, describe, expect, it} from 'vitest'
import {callAgent} from '../../../src/client/agent/call-agent.js'
import {listen} from '../../../src/http/listen.js'
import {generateIdentityKeyPair} from '../../../src/identity/keys.js'
import {PAYMENT_HEADERS} from '../../../src/protocol/agent-card.js'
import {caught} from '../../support/caught.js'
import {startSkillAgent, txSignature, walletAddress, type SkillAgent, type SkillAgentOptions} from './skill-agent.js'

const agents: SkillAgent[] = []
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close()
})
async function agentWith(options: SkillAgentOptions = {}) {
  const agent = await startSkillAgent(options)
  agents.push(agent)
  return agent
}

describe('callAgent', () => {
  it('calls a free skill unsigned: the JSON result, no Mesh-Sig sent', async () => {
    const agent = await agentWith()
    const answer = await callAgent({agent: agent.url, skill: 'echo', input: {text: 'hello'}})
    expect(answer).toMatchObject({status: 'ok', result: {echo: {text: 'hello'}, signer: null}, httpStatus: 200, signer: null, url: `${agent.url}/v1/echo`})
    expect(agent.calls[0].headers['mesh-sig']).toBeUndefined()
    expect(agent.calls[0].headers['content-type']).toBe('application/json')
    expect(agent.calls[0].body).toBe('{"text":"hello"}')
  })

  it("signs with Mesh-Sig: the agent's verifier accepts it and sees the caller's key", async () => {
    const agent = await agentWith()
    const keys = generateIdentityKeyPair()
    const answer = await callAgent({agent: agent.url + '/', skill: 'echo', input: {text: 'héllo ✓'}, privateKey: keys.privateKeyPem})
    expect(answer.status).toBe('ok')
    expect(answer.signer).toBe(keys.publicKey)
    expect((answer as {result: {signer: string}}).result.signer).toBe(keys.publicKey)
  })

  it('signs the path with the base path and query of the agent URL, and the exact bytes sent', async () => {
    const agent = await agentWith({basePath: '/tenants/t1'})
    const keys = generateIdentityKeyPair()
    const answer = await callAgent({agent: `${agent.url}?region=eu&v=2`, skill: 'echo', input: {n: 1}, privateKey: keys.privateKeyPem})
    expect(answer).toMatchObject({status: 'ok', result: {signer: keys.publicKey}})
    expect(agent.calls[0].url).toBe('/tenants/t1/v1/echo?region=eu&v=2')
  })

  it('a Mesh-Sig the agent refuses is its 401 with its code', async () => {
    const agent = await agentWith({clock: () => Date.now() + 10 * 60_000})
    const error = await caught(callAgent({agent: agent.url, skill: 'echo', input: {}, privateKey: generateIdentityKeyPair().privateKeyPem}))
    expect([error.kind, error.code, error.details?.status]).toEqual(['unauthorized', 'signature_expired', 401])
  })

  it('a 402 is an answer: the challenge from headers and body, checked to agree', async () => {
    const agent = await agentWith({lamports: 1_500_000n})
    const answer = await callAgent({agent: agent.url, skill: 'paid', input: {text: 'hi'}})
    if (answer.status !== 'payment_required') throw new Error('expected a 402')
    expect(answer.httpStatus).toBe(402)
    expect(answer.proofRefused).toBe(false)
    expect(answer.challenge).toMatchObject({network: 'solana-devnet', address: agent.wallet, lamports: 1_500_000n, sol: '0.0015', nonce: agent.nonces[0], resource: '/v1/paid'})
    expect(answer.challenge.payUrl).toBe(`solana:${agent.wallet}?amount=0.0015&memo=${agent.nonces[0]}&label=Caller%20test%20agent`)
    expect(answer.challenge.hint).toContain('retry with X-Payment-Proof')
    expect(answer.challenge.offer?.scheme).toBe('exact')
  })

  it('retries with the proof as X-Payment-Proof; a proof the agent refuses is a fresh challenge', async () => {
    const agent = await agentWith()
    const good = txSignature()
    agent.validProofs.add(good)
    const paid = await callAgent({agent: agent.url, skill: 'paid', input: {text: 'hi'}, proof: good})
    expect(paid).toMatchObject({status: 'ok', result: {paid: true, tx_proof: good}})
    expect(agent.calls[0].headers['x-payment-proof']).toBe(good)

    const refused = await callAgent({agent: agent.url, skill: 'paid', input: {text: 'hi'}, proof: txSignature()})
    expect(refused).toMatchObject({status: 'payment_required', proofRefused: true, challenge: {nonce: agent.nonces[0]}})
    expect(refused.status === 'payment_required' && refused.challenge.hint).toContain('not found on the chain')
  })

  it('refuses a proof that is not a transaction signature before calling', async () => {
    const agent = await agentWith()
    expect((await caught(callAgent({agent: agent.url, skill: 'paid', proof: 'not-a-signature'}))).code).toBe('invalid_proof')
    expect(agent.calls).toHaveLength(0)
  })

  it.each([
    ['amount', {[PAYMENT_HEADERS.amount]: '1'}, /the amount/],
    ['address', {[PAYMENT_HEADERS.address]: walletAddress()}, /the address/],
    ['nonce', {[PAYMENT_HEADERS.nonce]: 'another-nonce'}, /the nonce/],
    ['network', {[PAYMENT_HEADERS.network]: 'solana'}, /the network/],
  ])('refuses a 402 whose headers and body disagree on the %s', async (_field, headers, message) => {
    const agent = await agentWith({tamper: (challenge) => Object.assign(challenge.headers, headers)})
    const error = await caught(callAgent({agent: agent.url, skill: 'paid', input: {}}))
    expect([error.kind, error.code]).toEqual(['payment_required', 'payment_challenge_mismatch'])
    expect(error.message).toMatch(message)
  })

  it('refuses a 402 whose pay URI pays another address', async () => {
    const agent = await agentWith({tamper: (challenge) => (challenge.body.accepts[0].chainPayUrl = `solana:${walletAddress()}?amount=0.0015&memo=x`)})
    const error = await caught(callAgent({agent: agent.url, skill: 'paid', input: {}}))
    expect(error.code).toBe('payment_challenge_mismatch')
    expect(error.message).toContain('payment URI')
  })

  it("any other refusal is a MeshError with the agent's code, message and field", async () => {
    const agent = await agentWith()
    const error = await caught(callAgent({agent: agent.url, skill: 'strict', input: {text: 3}}))
    expect([error.kind, error.code, error.message, error.field, error.details?.status]).toEqual(['invalid', 'invalid_input', 'text must be a string', 'text', 400])
    const unknown = await caught(callAgent({agent: agent.url, skill: 'nope', input: {}}))
    expect([unknown.kind, unknown.code]).toEqual(['not_found', 'unknown_skill'])
  })

  it('sends a bring-your-own-key credential as Authorization: Bearer, and never in an error', async () => {
    const agent = await agentWith()
    const answer = await callAgent({agent: agent.url, skill: 'echo', input: {}, credential: 'sk-test-123'})
    expect(answer).toMatchObject({status: 'ok', result: {bearer: true}})
    expect(agent.calls[0].headers.authorization).toBe('Bearer sk-test-123')
    const bad = await caught(callAgent({agent: agent.url, skill: 'echo', credential: 'sk-secret\nX-Injected: 1'}))
    expect(bad.code).toBe('invalid_credential')
    expect(bad.message).not.toContain('sk-secret')
  })

  it('an agent that cannot be reached is agent_unreachable; a bad URL or skill id is refused before any call', async () => {
    const closed = await listen(() => {})
    await closed.close()
    const error = await caught(callAgent({agent: closed.url, skill: 'echo'}))
    expect(error.code).toBe('agent_unreachable')
    expect(error.message).toContain(`Cannot reach the agent at ${closed.url}`)
    expect((await caught(callAgent({agent: 'ftp://x', skill: 'echo'}))).code).toBe('invalid_agent_url')
    expect((await caught(callAgent({agent: 'http://127.0.0.1:1', skill: '../admin'}))).code).toBe('invalid_skill_id')
  })

  it('does not follow a redirect with a signed call', async () => {
    const target = await agentWith()
    const redirecting = await listen((_req, res) => {
      res.writeHead(307, {location: `${target.url}/v1/echo`})
      res.end()
    })
    try {
      const error = await caught(callAgent({agent: redirecting.url, skill: 'echo', privateKey: generateIdentityKeyPair().privateKeyPem, credential: 'sk-x'}))
      expect(error.code).toBe('agent_redirected')
      expect(target.calls).toHaveLength(0)
    } finally {
      await redirecting.close()
    }
  })
})
