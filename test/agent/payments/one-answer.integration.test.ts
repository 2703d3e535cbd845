/**
 * Issue 18, deliverable 4: one payment buys one answer. Each attack runs
 * over real HTTP against createAgent + createPayments and a local Solana
 * JSON-RPC node: one proof repeated 30 times, sequentially and concurrently
 * (the handler runs once, every answer is the paid call's); an observer who
 * read the transaction signature on chain front-running the payer with
 * another body, another key or none (refused, and the payer is then served);
 * a proof whose nonce was issued to another skill, body or signer (refused
 * with a hint naming which).
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {MINUTE, newCaller, startPaidAgent, type PaidAgent, type WireAnswer} from './served-paid-agent.js'

let agent: PaidAgent
beforeEach(async () => {
  agent = await startPaidAgent()
})
afterEach(async () => {
  await agent.stop()
})

const payer = newCaller()
const observer = newCaller()
const body = '{"text": "the paid question"}'

/** Status and body: what "the same answer" means on the wire. */
const wire = (answer: WireAnswer) => ({status: answer.status, text: answer.text})

describe('one proof, many requests: the handler runs once', () => {
  it('the paid call, then 20 sequential and 10 concurrent repeats with its proof: one run, 30 copies of its answer', async () => {
    const signature = await agent.pay('echo', {signer: payer, body})
    const paid = await agent.call('echo', {signer: payer, body, proof: signature})
    expect(paid).toMatchObject({status: 200, json: {skill: 'echo', text: 'the paid question', run: 1, paid_via: 'proof'}})

    const repeats: WireAnswer[] = []
    for (let i = 0; i < 20; i++) repeats.push(await agent.call('echo', {signer: payer, body, proof: signature}))
    repeats.push(...(await Promise.all(Array.from({length: 10}, () => agent.call('echo', {signer: payer, body, proof: signature})))))

    expect(agent.runs).toHaveLength(1)
    expect(repeats).toHaveLength(30)
    for (const repeat of repeats) expect(wire(repeat)).toEqual(wire(paid))
    // decided from the store: the chain was asked once, by the paid call
    expect(agent.node.callsOf('getTransaction')).toHaveLength(1)
  })

  it('10 concurrent first uses of a fresh proof while its call runs, then 20 sequential: one run, every answer the same', async () => {
    const signature = await agent.pay('echo', {signer: payer, body})
    let release!: () => void
    agent.hold = new Promise<void>((resolve) => {
      release = resolve
    })
    const concurrent = Array.from({length: 10}, () => agent.call('echo', {signer: payer, body, proof: signature}))
    // The handler holds its answer until the first run has started and all ten requests have reached the agent.
    await expect.poll(() => agent.runs.length > 0 && agent.proofRequests() === 10).toBe(true)
    release()
    const answers = await Promise.all(concurrent)
    for (let i = 0; i < 20; i++) answers.push(await agent.call('echo', {signer: payer, body, proof: signature}))

    expect(agent.runs).toHaveLength(1)
    expect(answers).toHaveLength(30)
    expect(answers[0]).toMatchObject({status: 200, json: {text: 'the paid question', run: 1, paid_via: 'proof'}})
    for (const answer of answers) expect(wire(answer)).toEqual(wire(answers[0]))
  })

  it('the stored answer is replayed for the retry window only; then the proof is refused with a fresh 402', async () => {
    const signature = await agent.pay('echo', {signer: payer, body})
    const paid = await agent.call('echo', {signer: payer, body, proof: signature})
    agent.advance(10 * MINUTE - 1)
    expect(wire(await agent.call('echo', {signer: payer, body, proof: signature}))).toEqual(wire(paid))
    agent.advance(1)
    const late = await agent.call('echo', {signer: payer, body, proof: signature})
    expect(late.status).toBe(402)
    expect(late.json.hint).toContain("already bought this call's answer")
    expect(agent.runs).toHaveLength(1)
  })

  it('an answer above the cap is sent once; a retry is answered 409 answer_not_kept, never run again', async () => {
    await agent.stop()
    agent = await startPaidAgent({maxStoredAnswerBytes: 32})
    const signature = await agent.pay('echo', {signer: payer, body})
    expect((await agent.call('echo', {signer: payer, body, proof: signature})).status).toBe(200)
    const retry = await agent.call('echo', {signer: payer, body, proof: signature})
    expect(retry).toMatchObject({status: 409, json: {error: {code: 'answer_not_kept'}}})
    expect(retry.json.error.message).toContain('above the 32 bytes the agent keeps for retries')
    expect(agent.runs).toHaveLength(1)
  })
})

describe('front-running: the signature is public on chain', () => {
  it('an observer sending it first with another body, another key or none is refused; the payer is then served', async () => {
    const signature = await agent.pay('echo', {signer: payer, body})
    const stolen = '{"text": "the observer\'s question"}'
    const attempts = [
      await agent.call('echo', {body: stolen, proof: signature}),
      await agent.call('echo', {signer: observer, body: stolen, proof: signature}),
      await agent.call('echo', {signer: observer, body, proof: signature}),
      await agent.call('echo', {body, proof: signature}),
    ]
    for (const attempt of attempts) {
      expect(attempt.status).toBe(402)
      expect(attempt.json.hint).toMatch(/^The payment proof was refused: the nonce in the memo was issued/)
    }
    expect(agent.runs).toEqual([])

    const served = await agent.call('echo', {signer: payer, body, proof: signature})
    expect(served).toMatchObject({status: 200, json: {text: 'the paid question', paid_via: 'proof'}})
    expect(agent.runs).toEqual([{skill: 'echo', text: 'the paid question', caller: payer.publicKey}])

    // once served, the observer still gets nothing: not a run, not the payer's answer
    const after = await agent.call('echo', {signer: observer, body, proof: signature})
    expect(after.status).toBe(402)
    expect(after.json.hint).toContain('this transaction paid for another call (another signer')
    expect(after.text).not.toContain('the paid question')
    expect(agent.runs).toHaveLength(1)
  })

  it('a 402 that went to an unsigned caller binds the body: another body is refused, the same body gets the one answer', async () => {
    const signature = await agent.pay('echo', {body})
    expect((await agent.call('echo', {body: '{"text": "other"}', proof: signature})).status).toBe(402)
    const paid = await agent.call('echo', {body, proof: signature})
    expect(paid.status).toBe(200)
    expect(wire(await agent.call('echo', {signer: observer, body, proof: signature}))).toEqual(wire(paid))
    expect(agent.runs).toHaveLength(1)
  })
})

describe('a proof pays only for the call its nonce was issued to', () => {
  it.each([
    ['another skill', {skill: 'shout', signer: payer, body}, 'was issued for another call (/v1/echo or another price)'],
    ['another body', {skill: 'echo', signer: payer, body: '{"text": "a different body"}'}, 'was issued for this skill with another body'],
    ['another signer', {skill: 'echo', signer: observer, body}, 'issued to a signed caller and this request is not signed by that key'],
    ['no signature', {skill: 'echo', signer: undefined, body}, 'issued to a signed caller and this request is not signed by that key'],
  ])('%s: refused with a fresh 402 whose hint says so, and the proof still buys its own call', async (_row, attempt, hint) => {
    const signature = await agent.pay('echo', {signer: payer, body})
    const refused = await agent.call(attempt.skill, {signer: attempt.signer, body: attempt.body, proof: signature})
    expect(refused.status).toBe(402)
    expect(refused.json.hint).toContain(hint)
    expect(refused.nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(agent.runs).toEqual([])
    expect((await agent.call('echo', {signer: payer, body, proof: signature})).status).toBe(200)
  })
})
