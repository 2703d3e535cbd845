/**
 * Gate level, prepaid (spec: prepaid alternative; Paid call table rows
 * "prepaid balance"): topup binds, the deposit scan credits idempotently,
 * one unit per call, 402 at zero, a failed handler gets its credit back.
 */
import {afterEach, describe, expect, it, vi} from 'vitest'
import {openSqlite} from '../../../src/store/sqlite.js'
import {publicCard} from '../../support/agent-card.js'
import {caught} from '../../support/caught.js'
import {base58Decode} from '../../../src/identity/base58.js'
import {randomAddress} from '../../support/solana-rpc.js'
import {solanaWallet} from '../../support/solana-wallet.js'
import {expectAdmitted, expectChallenge, MINUTE, paidCall, payFor, paymentsWorld, PRICE, provePayer, type PaymentsWorld} from './support.js'

const alice = 'YWxpY2UAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
const bob = 'Ym9iAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='

let world: PaymentsWorld
afterEach(async () => {
  await world.close()
})

/** A world with no free allowance and one credit = the price. */
const prepaidWorld = async (over = {}) => (world = await paymentsWorld({freePerDay: 0, lamportsPerCredit: PRICE, ...over}))
/** Alice signs Mesh-Sig v2 naming the agent (issue 18: only such a caller spends credit). */
const aliceCall = (over = {}) => paidCall({caller: {pubkey: alice, ip: '10.0.0.1', audienceBound: true}, ...over})

describe('topup', () => {
  it('naming a payer address binds nothing: it answers a challenge; the signed challenge binds it and answers the deposit instructions', async () => {
    await prepaidWorld()
    const pending = (await world.gate.topup!({pubkey: alice, payerAddress: world.payer})) as any
    expect(pending).toEqual({
      payer_address: world.payer,
      pay_to: world.wallet,
      network: 'solana-devnet',
      lamports_per_credit: '1000000',
      credits: 0,
      scan_interval_seconds: 120,
      bound: false,
      challenge: {
        message: expect.stringContaining(`I control ${world.payer} and bind it to the caller key ${alice}`),
        memo: expect.stringMatching(/^[0-9a-f]{32}$/),
        expires_at: new Date(world.now() + 30 * MINUTE).toISOString(),
        pay_url: expect.stringMatching(new RegExp(`^solana:${world.wallet}\\?amount=0\\.001&memo=[0-9a-f]{32}`)),
      },
      hint: expect.stringContaining(`${world.payer} is not bound to your key yet`),
    })
    expect(world.gate.credits(alice)).toBe(0)
    // asking again while it lives answers the same challenge
    expect(((await world.gate.topup!({pubkey: alice, payerAddress: world.payer})) as any).challenge).toEqual(pending.challenge)
    const bound = await world.gate.topup!({pubkey: alice, payerAddress: world.payer, payerSignature: world.payerWallet.signMessage(pending.challenge.message)})
    expect(bound).toEqual({
      payer_address: world.payer,
      pay_to: world.wallet,
      network: 'solana-devnet',
      lamports_per_credit: '1000000',
      credits: 0,
      scan_interval_seconds: 120,
      bound: true,
      proven_by: 'signature',
      hint: expect.stringContaining(`Send SOL from ${world.payer} to ${world.wallet} on solana-devnet`),
    })
    // asking again from the same key answers the binding; from another key it is refused
    expect(await world.gate.topup!({pubkey: alice, payerAddress: world.payer})).toMatchObject({bound: true})
    expect(await caught(world.gate.topup!({pubkey: bob, payerAddress: world.payer}))).toMatchObject({kind: 'conflict', code: 'payer_address_taken', field: 'payer_address'})
  })

  it('the challenge message names the agent, the payer address, the caller key, a nonce and an expiry, exactly', async () => {
    await prepaidWorld()
    const pending = (await world.gate.topup!({pubkey: alice, payerAddress: world.payer})) as any
    expect(pending.challenge.message).toBe(
      [
        'mesh prepaid: prove control of a payer address',
        `I control ${world.payer} and bind it to the caller key ${alice}: its deposits to ${world.wallet} on solana-devnet buy credit for that key.`,
        `agent: ${world.wallet} (solana-devnet)`,
        `payer_address: ${world.payer}`,
        `caller_key: ${alice}`,
        `nonce: ${pending.challenge.memo}`,
        `expires: ${pending.challenge.expires_at}`,
      ].join('\n'),
    )
  })

  it('refuses a payer_signature that is malformed, by another key, over another message, or with no challenge issued', async () => {
    await prepaidWorld()
    const noChallenge = await caught(world.gate.topup!({pubkey: alice, payerAddress: world.payer, payerSignature: world.payerWallet.signMessage('anything')}))
    expect(noChallenge).toMatchObject({kind: 'conflict', code: 'payer_challenge_missing', field: 'payer_signature'})
    const pending = (await world.gate.topup!({pubkey: alice, payerAddress: world.payer})) as any
    expect(await caught(world.gate.topup!({pubkey: alice, payerAddress: world.payer, payerSignature: 'not-a-signature'}))).toMatchObject({kind: 'invalid', code: 'invalid_payer_signature'})
    const stranger = solanaWallet()
    expect(await caught(world.gate.topup!({pubkey: alice, payerAddress: world.payer, payerSignature: stranger.signMessage(pending.challenge.message)}))).toMatchObject({
      kind: 'forbidden',
      code: 'payer_signature_rejected',
    })
    expect(await caught(world.gate.topup!({pubkey: alice, payerAddress: world.payer, payerSignature: world.payerWallet.signMessage(`${pending.challenge.message} `)}))).toMatchObject({
      code: 'payer_signature_rejected',
    })
    // bob cannot use alice's challenge, even signed by the owner: his own challenge names his key
    const forAlice = world.payerWallet.signMessage(pending.challenge.message)
    await world.gate.topup!({pubkey: bob, payerAddress: world.payer})
    expect(await caught(world.gate.topup!({pubkey: bob, payerAddress: world.payer, payerSignature: forAlice}))).toMatchObject({code: 'payer_signature_rejected'})
    // a base64 signature is read too
    const base64 = Buffer.from(base58Decode(forAlice)).toString('base64')
    expect(await world.gate.topup!({pubkey: alice, payerAddress: world.payer, payerSignature: base64})).toMatchObject({bound: true})
  })

  it('refuses what is not a Solana address, and the agent wallet itself', async () => {
    await prepaidWorld()
    expect(await caught(world.gate.topup!({pubkey: alice, payerAddress: 'not-an-address'}))).toMatchObject({kind: 'invalid', code: 'invalid_payer_address', field: 'payer_address'})
    expect(await caught(world.gate.topup!({pubkey: alice, payerAddress: world.wallet}))).toMatchObject({code: 'invalid_payer_address'})
  })

  it('is absent when prepaid is off (no lamportsPerCredit and no card)', async () => {
    world = await paymentsWorld()
    expect(world.gate.topup).toBeUndefined()
    expect(await world.gate.scanDeposits()).toEqual({handled: 0, credited: 0})
  })

  it('defaults lamportsPerCredit to the highest price of the card and labels URIs with its name', async () => {
    const card = publicCard({
      name: 'Paid Echo',
      url: 'https://echo.example',
      version: '1',
      description: 'd',
      protocols: ['http', 'x402'],
      pricing: {unit: 'request', amount: 5000, currency: 'lamports'},
      skills: [{id: 'echo'}, {id: 'big', pricing: {unit: 'request', amount: 20000, currency: 'lamports'}}, {id: 'free', pricing: {amount: 0, currency: 'free'}}],
    })
    world = await paymentsWorld({card, freePerDay: 0})
    expect(await provePayer(world, alice)).toMatchObject({lamports_per_credit: '20000'})
    const challenge = expectChallenge(await world.gate.admit(paidCall({lamports: 5000n})))
    expect(challenge.body.accepts[0].chainPayUrl).toMatch(/&label=Paid%20Echo$/)
  })
})

describe('the deposit scan', () => {
  it('credits a bound payer once: scanning twice, or after a restart, or with the cursor lost, adds nothing', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: 3n * PRICE})
    expect(await world.gate.scanDeposits()).toEqual({handled: 1, credited: 3})
    expect(world.gate.credits(alice)).toBe(3)
    expect(world.node.callsOf('getSignaturesForAddress')[0].params).toEqual([world.wallet, {commitment: 'confirmed', limit: 1000}])

    expect(await world.gate.scanDeposits()).toEqual({handled: 0, credited: 0})
    const cursor = world.node.callsOf('getSignaturesForAddress')[1].params[1] as {until?: string}
    expect(cursor.until).toBeTruthy()
    expect(world.node.callsOf('getTransaction')).toHaveLength(1)

    const reopened = await world.restart()
    expect(await reopened.scanDeposits()).toEqual({handled: 0, credited: 0})
    expect(reopened.credits(alice)).toBe(3)
  })

  it('credits nothing to a binding from before proofs of control (a squatter may hold it); the owner who proves control gets the deposits', async () => {
    const db = openSqlite()
    world = await paymentsWorld({freePerDay: 0, lamportsPerCredit: PRICE, db})
    db.prepare('INSERT INTO agent_pay_bindings (payer_address, pubkey, bound_ms, proven_by) VALUES (?, ?, 0, NULL)').run(world.payer, bob)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: 2n * PRICE})
    expect(await world.gate.scanDeposits()).toMatchObject({credited: 0})
    expect(world.gate.credits(bob)).toBe(0)
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE})
    // the owner's deposit made while the squatter held the binding is the owner's too
    expect(await world.gate.scanDeposits()).toMatchObject({credited: 3})
    expect([world.gate.credits(alice), world.gate.credits(bob)]).toEqual([3, 0])
    db.close()
  })

  it('is idempotent on the signature even when the cursor is lost', async () => {
    const db = openSqlite()
    world = await paymentsWorld({freePerDay: 0, lamportsPerCredit: PRICE, db})
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: 2n * PRICE})
    await world.gate.scanDeposits()
    db.prepare('DELETE FROM agent_pay_state').run()
    expect(await world.gate.scanDeposits()).toEqual({handled: 0, credited: 0})
    expect(world.gate.credits(alice)).toBe(2)
    db.close()
  })

  it('spends one credit per call and challenges at zero', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: 2n * PRICE})
    await world.gate.scanDeposits()
    const first = expectAdmitted(await world.gate.admit(aliceCall()))
    expect(first.receipt).toEqual({via: 'credit', creditsLeft: 1})
    await first.commit()
    expect(expectAdmitted(await world.gate.admit(aliceCall({bodyHash: 'h2'}))).receipt).toEqual({via: 'credit', creditsLeft: 0})
    const challenge = expectChallenge(await world.gate.admit(aliceCall()), 'payment_required')
    expect(challenge.body.hint).toContain('Or prepay: POST /v1/topup')
    // credits belong to the key: an unsigned caller never spends them, and is told prepaid needs a signature
    expect(expectChallenge(await world.gate.admit(paidCall({caller: {pubkey: null, ip: '10.0.0.1'}}))).body.hint).toContain('Signed callers (Mesh-Sig) can also prepay')
  })

  it('never spends credit for a signature not bound to this agent (Mesh-Sig v1, issue 18): 402, the balance untouched', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: 2n * PRICE})
    await world.gate.scanDeposits()
    expectChallenge(await world.gate.admit(aliceCall({caller: {pubkey: alice, ip: '10.0.0.1', audienceBound: false}})), 'payment_required')
    expectChallenge(await world.gate.admit(aliceCall({caller: {pubkey: alice, ip: '10.0.0.1'}})), 'payment_required')
    expect(world.gate.credits(alice)).toBe(2)
    expect(expectAdmitted(await world.gate.admit(aliceCall())).receipt).toEqual({via: 'credit', creditsLeft: 1})
  })

  it('uses the free allowance before any credit', async () => {
    await prepaidWorld({freePerDay: 1})
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE})
    await world.gate.scanDeposits()
    expect(expectAdmitted(await world.gate.admit(aliceCall())).receipt.via).toBe('allowance')
    expect(expectAdmitted(await world.gate.admit(aliceCall())).receipt.via).toBe('credit')
  })

  it('gives the credit back when the handler fails', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE})
    await world.gate.scanDeposits()
    await expectAdmitted(await world.gate.admit(aliceCall())).release()
    expect(world.gate.credits(alice)).toBe(1)
    await expectAdmitted(await world.gate.admit(aliceCall())).commit()
    expect(world.gate.credits(alice)).toBe(0)
  })

  it('keeps lamports below one credit for the next deposit', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE + PRICE / 2n})
    expect(await world.gate.scanDeposits()).toMatchObject({credited: 1})
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE / 2n})
    expect(await world.gate.scanDeposits()).toMatchObject({credited: 1})
    expect(world.gate.credits(alice)).toBe(2)
  })

  it('spends as many credits as a pricier skill needs', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: 3n * PRICE})
    await world.gate.scanDeposits()
    expect(expectAdmitted(await world.gate.admit(aliceCall({lamports: 2n * PRICE}))).receipt).toEqual({via: 'credit', creditsLeft: 1})
    expectChallenge(await world.gate.admit(aliceCall({lamports: 2n * PRICE})), 'payment_required')
  })

  it('credits nothing for unbound payers, failed transactions, outgoing transfers, or deposits made before the binding', async () => {
    await prepaidWorld()
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE, blockTime: Math.floor((world.now() - 10 * MINUTE) / 1000)})
    world.advance(10 * MINUTE)
    await provePayer(world, alice)
    world.node.addTransaction({payer: randomAddress(), to: world.wallet, lamports: PRICE})
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE, err: {InstructionError: [0, 'InsufficientFunds']}})
    world.node.addTransaction({payer: world.wallet, to: world.payer, lamports: PRICE})
    expect(await world.gate.scanDeposits()).toEqual({handled: 3, credited: 0})
    expect(world.gate.credits(alice)).toBe(0)
    // the deposit from before the binding was never even fetched
    expect(world.node.callsOf('getTransaction')).toHaveLength(2)
  })

  it('never credits a per-call payment: its nonce memo marks it, and its proof still buys the call', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    const signature = await payFor(world, aliceCall())
    expect(await world.gate.scanDeposits()).toEqual({handled: 1, credited: 0})
    expect(expectAdmitted(await world.gate.admit(aliceCall({proof: signature}))).receipt.via).toBe('proof')
    // and a verified proof the scan meets later is not credited either
    const later = await payFor(world, aliceCall({bodyHash: 'h2'}))
    await expectAdmitted(await world.gate.admit(aliceCall({bodyHash: 'h2', proof: later}))).commit()
    expect(await world.gate.scanDeposits()).toEqual({handled: 1, credited: 0})
    expect(world.gate.credits(alice)).toBe(0)
  })

  it('a credited deposit is never accepted as a payment proof', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    const deposit = world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE})
    await world.gate.scanDeposits()
    // (the store refuses a credited signature as a proof outright; here its memo-less shape fails first)
    expectChallenge(await world.gate.admit(aliceCall({proof: deposit})), 'missing_memo')
    expect(world.gate.credits(alice)).toBe(1)
  })

  it('stops at a transaction the node lists but cannot return yet, and credits it on the next scan', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE})
    world.node.fail('rpc_error')
    expect(await caught(world.gate.scanDeposits())).toMatchObject({code: 'chain_unavailable'})
    world.node.fail(null)
    expect(await world.gate.scanDeposits()).toEqual({handled: 1, credited: 1})
  })

  it('the periodic job scans on start and stops on close', async () => {
    await prepaidWorld()
    await provePayer(world, alice)
    world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: PRICE})
    world.gate.start()
    await vi.waitFor(() => expect(world.gate.credits(alice)).toBe(1))
    await world.gate.close()
    expect(await caught(world.gate.admit(aliceCall()))).toMatchObject({kind: 'unavailable', code: 'agent_stopping'})
  })
})
