/**
 * Gate level: every row of the spec's paid-call table (issue 11, deliverable
 * 6) against a local Solana JSON-RPC node, plus the allowance, release and
 * replay rules of DECISIONS "Paid calls" and "Free allowance".
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {caught} from '../../support/caught.js'
import {randomAddress, randomSignature} from '../../support/solana-rpc.js'
import {answer, DAY, expectAdmitted, expectChallenge, expectReplay, MINUTE, nonceOf, paidCall, payFor, paymentsWorld, PRICE, type PaymentsWorld} from './support.js'

let world: PaymentsWorld
beforeEach(async () => {
  world = await paymentsWorld()
})
afterEach(async () => {
  await world.close()
})

const alice = 'YWxpY2UAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
const bob = 'Ym9iAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='

describe('unpaid calls: the free allowance (2 a day here)', () => {
  it('serves within the allowance, counting down, with no chain call', async () => {
    const first = expectAdmitted(await world.gate.admit(paidCall()))
    expect(first.receipt).toEqual({via: 'allowance', allowanceLeft: 1})
    await first.commit()
    expect(expectAdmitted(await world.gate.admit(paidCall())).receipt).toEqual({via: 'allowance', allowanceLeft: 0})
    expect(world.node.calls).toEqual([])
  })

  it('challenges once the allowance is used up: headers, body, a fresh stored nonce each time', async () => {
    await world.gate.admit(paidCall())
    await world.gate.admit(paidCall())
    const challenge = expectChallenge(await world.gate.admit(paidCall()), 'payment_required')
    const nonce = nonceOf(challenge)
    expect(nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(challenge.headers).toEqual({
      'X-Payment-Network': 'solana-devnet',
      'X-Payment-Address': world.wallet,
      'X-Payment-Amount': '1000000',
      'X-Payment-Nonce': nonce,
    })
    expect(challenge.body).toEqual({
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: 'solana-devnet',
          resource: '/v1/echo',
          payTo: world.wallet,
          asset: 'SOL',
          lamports: '1000000',
          nonce,
          chainPayUrl: `solana:${world.wallet}?amount=0.001&memo=${nonce}&label=mesh%20agent`,
        },
      ],
      hint: expect.stringContaining('The free allowance (2 calls a day) is used up'),
    })
    expect(challenge.body.hint).toContain(`Pay 0.001 SOL (1000000 lamports) to ${world.wallet} on solana-devnet with the memo ${nonce}`)
    expect(challenge.body.hint).toContain('X-Payment-Proof: <transaction signature>')
    expect(nonceOf(expectChallenge(await world.gate.admit(paidCall())))).not.toBe(nonce)
    expect(world.node.calls).toEqual([])
  })

  it('counts the pubkey: the same key from another IP is refused once used up', async () => {
    await world.gate.admit(paidCall({caller: {pubkey: alice, ip: '10.0.0.1'}}))
    await world.gate.admit(paidCall({caller: {pubkey: alice, ip: '10.0.0.2'}}))
    expectChallenge(await world.gate.admit(paidCall({caller: {pubkey: alice, ip: '10.0.0.3'}})), 'payment_required')
  })

  it('counts the IP: another key (or no key) from a used-up IP is refused', async () => {
    await world.gate.admit(paidCall({caller: {pubkey: alice, ip: '10.0.0.9'}}))
    await world.gate.admit(paidCall({caller: {pubkey: null, ip: '10.0.0.9'}}))
    expectChallenge(await world.gate.admit(paidCall({caller: {pubkey: bob, ip: '10.0.0.9'}})), 'payment_required')
    expectChallenge(await world.gate.admit(paidCall({caller: {pubkey: null, ip: '10.0.0.9'}})), 'payment_required')
    // bob's own count was not touched by the refusal
    expect(expectAdmitted(await world.gate.admit(paidCall({caller: {pubkey: bob, ip: '10.0.0.10'}}))).receipt.allowanceLeft).toBe(1)
  })

  it('starts afresh 24 h after the first call of the window', async () => {
    await world.gate.admit(paidCall())
    await world.gate.admit(paidCall())
    world.advance(DAY - 1)
    expectChallenge(await world.gate.admit(paidCall()))
    world.advance(1)
    expectAdmitted(await world.gate.admit(paidCall()))
  })

  it('with freePerDay 0, the first call is challenged and the hint says the skill is paid', async () => {
    const gate = world.open({freePerDay: 0})
    expect(expectChallenge(await gate.admit(paidCall()), 'payment_required').body.hint).toMatch(/^This skill is paid per call\./)
  })

  it('two racing calls cannot share the last allowance slot', async () => {
    const gate = world.open({freePerDay: 1, dataDir: undefined})
    const decisions = await Promise.all([gate.admit(paidCall()), gate.admit(paidCall())])
    expect(decisions.map((decision) => decision.kind).sort()).toEqual(['admitted', 'challenge'])
  })
})

describe('calls with X-Payment-Proof', () => {
  it('a valid proof buys the call: one getTransaction, jsonParsed at confirmed', async () => {
    const signature = await payFor(world)
    const hold = expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
    expect(hold.receipt).toEqual({via: 'proof', signature})
    expect(world.node.callsOf('getTransaction').map((call) => call.params)).toEqual([
      [signature, {encoding: 'jsonParsed', commitment: 'confirmed', maxSupportedTransactionVersion: 0}],
    ])
    await hold.commit()
  })

  it('a retry of the paid call with the same proof gets its stored answer, without the chain or a second admission, within 10 minutes', async () => {
    const signature = await payFor(world)
    const paid = {status: 200, body: '{"text":"paid once"}', headers: {'x-answer': 'kept'}}
    await expectAdmitted(await world.gate.admit(paidCall({proof: signature}))).commit(paid)
    world.advance(10 * MINUTE - 1)
    expect(expectReplay(await world.gate.admit(paidCall({proof: signature})))).toEqual(paid)
    expect(expectReplay(await world.gate.admit(paidCall({proof: signature})))).toEqual(paid)
    expect(world.node.callsOf('getTransaction')).toHaveLength(1)
    world.advance(1)
    const late = expectChallenge(await world.gate.admit(paidCall({proof: signature})), 'entitlement_expired')
    expect(late.body.hint).toContain('that window is over')
  })

  it('an answer above maxStoredAnswerBytes is sent once; a retry is told it was not kept (409), never run again', async () => {
    const gate = world.open({maxStoredAnswerBytes: 16})
    const signature = await payFor({...world, gate})
    await expectAdmitted(await gate.admit(paidCall({proof: signature}))).commit({status: 200, body: JSON.stringify({text: 'x'.repeat(17)})})
    expect(await caught(gate.admit(paidCall({proof: signature})))).toMatchObject({kind: 'conflict', code: 'answer_not_kept', message: expect.stringContaining('above the 16 bytes')})
    // at the cap it is kept
    const small = await payFor({...world, gate}, paidCall({bodyHash: 'h2'}))
    await expectAdmitted(await gate.admit(paidCall({proof: small, bodyHash: 'h2'}))).commit({status: 200, body: '"0123456789abcd"'})
    expect(expectReplay(await gate.admit(paidCall({proof: small, bodyHash: 'h2'}))).body).toBe('"0123456789abcd"')
  })

  it('the same proof never buys a second call: another body or another skill is refused, without the chain', async () => {
    const signature = await payFor(world)
    await expectAdmitted(await world.gate.admit(paidCall({proof: signature}))).commit()
    const otherBody = expectChallenge(await world.gate.admit(paidCall({proof: signature, bodyHash: 'h2'})), 'proof_used')
    expect(otherBody.body.hint).toContain('paid for another call (another body)')
    expectChallenge(await world.gate.admit(paidCall({proof: signature, resource: '/v1/other', skillId: 'other'})), 'proof_used')
    expect(world.node.callsOf('getTransaction')).toHaveLength(1)
  })

  it('a proof is refused for another call even before its own call has answered', async () => {
    const signature = await payFor(world)
    const hold = expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
    expectChallenge(await world.gate.admit(paidCall({proof: signature, bodyHash: 'h2'})), 'proof_used')
    // and the same call while it runs waits for its answer rather than running twice
    let waited = false
    const retry = world.gate.admit(paidCall({proof: signature})).finally(() => {
      waited = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(waited).toBe(false)
    await hold.commit(answer('once'))
    expect(expectReplay(await retry)).toEqual(answer('once'))
  })

  it('two racing requests with one fresh proof: one is admitted, the other waits and gets its answer', async () => {
    const signature = await payFor(world)
    const racing = [world.gate.admit(paidCall({proof: signature})), world.gate.admit(paidCall({proof: signature}))]
    await expectAdmitted(await Promise.race(racing)).commit(answer('raced'))
    const decisions = await Promise.all(racing)
    expect(decisions.map((decision) => decision.kind).sort()).toEqual(['admitted', 'replay'])
    expect(expectReplay(decisions.find((decision) => decision.kind === 'replay')!)).toEqual(answer('raced'))
  })

  it('a request waiting on a paid call that fails runs the call itself (a failed run spends nothing)', async () => {
    const signature = await payFor(world)
    const first = expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
    const waiting = world.gate.admit(paidCall({proof: signature}))
    await first.release()
    const second = expectAdmitted(await waiting)
    expect(second.receipt).toEqual({via: 'proof', signature})
    await second.commit(answer('second run'))
    expect(expectReplay(await world.gate.admit(paidCall({proof: signature})))).toEqual(answer('second run'))
  })

  it('a nonce is bound to the call it was issued for: another body, another signer or no signature is refused, and nothing is claimed', async () => {
    const alicePays = paidCall({caller: {pubkey: alice, ip: '10.0.0.1'}})
    const signature = await payFor(world, alicePays, {}, true)
    const otherBody = expectChallenge(await world.gate.admit({...alicePays, bodyHash: 'h2', proof: signature}), 'nonce_other_body')
    expect(otherBody.body.hint).toContain('issued for this skill with another body')
    const otherSigner = expectChallenge(await world.gate.admit({...alicePays, caller: {pubkey: bob, ip: '10.0.0.2'}, proof: signature}), 'nonce_other_signer')
    expect(otherSigner.body.hint).toContain('signed by the key that got the 402')
    expectChallenge(await world.gate.admit({...alicePays, caller: {pubkey: null, ip: '10.0.0.3'}, proof: signature}), 'nonce_other_signer')
    expectChallenge(await world.gate.admit({...alicePays, resource: '/v1/other', skillId: 'other', proof: signature}), 'nonce_other_call')
    // none of them spent it: the call it was issued for is served
    expect(expectAdmitted(await world.gate.admit({...alicePays, proof: signature})).receipt).toEqual({via: 'proof', signature})
  })

  it('a nonce issued to an unsigned caller binds the skill and body only', async () => {
    const signature = await payFor(world)
    expectChallenge(await world.gate.admit(paidCall({bodyHash: 'h2', proof: signature})), 'nonce_other_body')
    expect(expectAdmitted(await world.gate.admit(paidCall({caller: {pubkey: bob, ip: '10.9.9.9'}, proof: signature}))).receipt.via).toBe('proof')
  })

  it('a failed transaction is refused with a fresh challenge', async () => {
    const signature = await payFor(world, paidCall(), {err: {InstructionError: [0, {Custom: 1}]}})
    const challenge = expectChallenge(await world.gate.admit(paidCall({proof: signature})), 'failed')
    expect(challenge.body.hint).toMatch(/^The payment proof was refused: the transaction failed on chain/)
  })

  it('an unconfirmed transaction is refused (wait, do not pay again), and buys the call once confirmed', async () => {
    const signature = await payFor(world, paidCall(), {confirmed: false})
    const challenge = expectChallenge(await world.gate.admit(paidCall({proof: signature})), 'unconfirmed')
    expect(challenge.body.hint).toContain('do not pay again')
    expect(challenge.body.hint).toContain(signature)
    world.node.confirm(signature)
    expect(expectAdmitted(await world.gate.admit(paidCall({proof: signature}))).receipt.via).toBe('proof')
  })

  it('an unknown signature reads as unconfirmed', async () => {
    expectChallenge(await world.gate.admit(paidCall({proof: randomSignature()})), 'unconfirmed')
  })

  it('a transfer to another wallet is refused', async () => {
    const signature = await payFor(world, paidCall(), {to: randomAddress()})
    expect(expectChallenge(await world.gate.admit(paidCall({proof: signature})), 'wrong_destination').body.hint).toContain(`no SOL to this agent's wallet ${world.wallet}`)
  })

  it('a short amount is refused and the hint says how much arrived', async () => {
    const signature = await payFor(world, paidCall(), {lamports: PRICE - 1n})
    expect(expectChallenge(await world.gate.admit(paidCall({proof: signature})), 'short_amount').body.hint).toContain('sends 999999 lamports to the wallet but this call costs 1000000')
  })

  it('several transfers to the wallet add up to the price', async () => {
    const signature = await payFor(world, paidCall(), {lamports: 600_000n, transfers: [{from: world.payer, to: world.wallet, lamports: 400_000n, kind: 'transferWithSeed'}]})
    expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
  })

  it('a transaction without a memo is refused', async () => {
    const signature = await payFor(world, paidCall(), {memo: null})
    expect(expectChallenge(await world.gate.admit(paidCall({proof: signature})), 'missing_memo').body.hint).toContain('has no memo')
  })

  it('a memo with another nonce is refused: unknown, issued for another skill, already paid, or expired', async () => {
    const unknown = world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE, memo: 'f'.repeat(32)})
    expect(expectChallenge(await world.gate.admit(paidCall({proof: unknown})), 'memo_mismatch').body.hint).toContain('holds no nonce this agent issued')

    const forOther = await payFor(world, paidCall({resource: '/v1/other', skillId: 'other'}))
    expect(expectChallenge(await world.gate.admit(paidCall({proof: forOther})), 'nonce_other_call').body.hint).toContain('/v1/other')

    const first = await payFor(world)
    expectAdmitted(await world.gate.admit(paidCall({proof: first})))
    // a second transaction carrying the nonce `first` already paid
    const second = world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE, memo: world.node.memoOf(first)})
    expectChallenge(await world.gate.admit(paidCall({proof: second})), 'nonce_used')

    const late = await payFor(world, paidCall(), {blockTime: Math.floor((world.now() + 10 * MINUTE + 1000) / 1000)})
    expect(expectChallenge(await world.gate.admit(paidCall({proof: late})), 'nonce_expired').body.hint).toContain('had expired when the transaction was made')
  })

  it('a memo in an inner instruction or only in the logs counts, and text around the nonce is allowed', async () => {
    const inner = await payFor(world, paidCall(), {memoIn: 'inner'})
    expectAdmitted(await world.gate.admit(paidCall({proof: inner})))
    const signature = await payFor(world, paidCall({bodyHash: 'h2'}))
    const memo = world.node.memoOf(signature)
    const logged = world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE, memo: `order 42: ${memo} thanks`, memoIn: 'log'})
    expectAdmitted(await world.gate.admit(paidCall({proof: logged, bodyHash: 'h2'})))
  })

  it('a proof that is not a signature is refused without the chain', async () => {
    expect(expectChallenge(await world.gate.admit(paidCall({proof: 'not a signature'})), 'invalid_proof').body.hint).toContain('not a transaction signature')
    expect(world.node.calls).toEqual([])
  })

  it('a nonce paid late but landed in time still buys the call (the block time decides)', async () => {
    const signature = await payFor(world)
    world.advance(30 * MINUTE)
    expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
  })
})

describe('the chain node fails', () => {
  it('a JSON-RPC error answers 503 chain_unavailable with retry_after; nothing is spent; the proof works afterwards', async () => {
    const signature = await payFor(world)
    world.node.fail('rpc_error')
    const error = await caught(world.gate.admit(paidCall({proof: signature})))
    expect(error).toMatchObject({kind: 'unavailable', code: 'chain_unavailable', details: {retry_after: 5}})
    world.node.fail(null)
    expect(expectAdmitted(await world.gate.admit(paidCall({proof: signature}))).receipt.via).toBe('proof')
  })

  it('an HTTP 500 answers 503 too', async () => {
    const signature = await payFor(world)
    world.node.fail('http_500')
    expect(await caught(world.gate.admit(paidCall({proof: signature})))).toMatchObject({kind: 'unavailable', code: 'chain_unavailable'})
  })

  it('a timeout answers 503 (never served free), and the proof works once the node answers', async () => {
    const signature = await payFor(world)
    const gate = world.open({rpcTimeoutMs: 300})
    world.node.fail('hang')
    const error = await caught(gate.admit(paidCall({proof: signature})))
    expect(error).toMatchObject({kind: 'unavailable', code: 'chain_unavailable', details: {retry_after: 5}})
    expect(error.message).toContain('did not answer within 0.3 s')
    world.node.fail(null)
    expectAdmitted(await gate.admit(paidCall({proof: signature})))
  })
})

describe('a handler that fails consumes nothing', () => {
  it('a released allowance slot is given back', async () => {
    await expectAdmitted(await world.gate.admit(paidCall())).release()
    await expectAdmitted(await world.gate.admit(paidCall())).commit()
    const hold = expectAdmitted(await world.gate.admit(paidCall()))
    expect(hold.receipt.allowanceLeft).toBe(0)
    await hold.release()
    await hold.release() // twice does nothing more
    await expectAdmitted(await world.gate.admit(paidCall())).commit()
    expectChallenge(await world.gate.admit(paidCall()))
  })

  it('a released proof still buys the same call (no second chain call) and still no other call', async () => {
    const signature = await payFor(world)
    await expectAdmitted(await world.gate.admit(paidCall({proof: signature}))).release()
    expectChallenge(await world.gate.admit(paidCall({proof: signature, bodyHash: 'h2'})), 'proof_used')
    const again = expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
    expect(again.receipt).toEqual({via: 'proof', signature})
    await again.commit(answer('after a failure'))
    expect(expectReplay(await world.gate.admit(paidCall({proof: signature})))).toEqual(answer('after a failure'))
    expect(world.node.callsOf('getTransaction')).toHaveLength(1)
  })
})

describe('restart between challenge and proof', () => {
  it('the proof still buys the call after a restart, and a proof used before is still refused for another call', async () => {
    const signature = await payFor(world)
    const used = await payFor(world, paidCall({bodyHash: 'used'}))
    await expectAdmitted(await world.gate.admit(paidCall({proof: used, bodyHash: 'used'}))).commit()

    const reopened = await world.restart()
    const hold = expectAdmitted(await reopened.admit(paidCall({proof: signature})))
    expect(hold.receipt).toEqual({via: 'proof', signature})
    await hold.commit(answer('before the restart'))
    expectChallenge(await reopened.admit(paidCall({proof: used, bodyHash: 'other'})), 'proof_used')

    const again = await world.restart()
    expectChallenge(await again.admit(paidCall({proof: signature, bodyHash: 'other'})), 'proof_used')
    // the stored answer survived the restart
    expect(expectReplay(await again.admit(paidCall({proof: signature})))).toEqual(answer('before the restart'))
    // the allowance counters survived too
    await again.admit(paidCall())
    await again.admit(paidCall())
    expectChallenge(await again.admit(paidCall()))
  })

  it('a proof whose handler was running when the agent died is usable again for its call', async () => {
    const signature = await payFor(world)
    expectAdmitted(await world.gate.admit(paidCall({proof: signature})))
    const reopened = await world.restart()
    expect(expectAdmitted(await reopened.admit(paidCall({proof: signature}))).receipt.via).toBe('proof')
  })
})
