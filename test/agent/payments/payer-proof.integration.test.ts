/**
 * Issue 18, deliverable 5: prepaid payer addresses proven. Over real HTTP
 * (`POST /v1/topup` on createAgent + createPayments, a local Solana JSON-RPC
 * node, an injected payment clock): a squatter who names the owner's payer
 * address first binds nothing and is credited nothing; the owner proves
 * control — by signing the issued challenge with the address's key, or by a
 * first deposit carrying the issued memo — and is bound and credited; an
 * unproven claim expires.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {randomAddress} from '../../support/solana-rpc.js'
import {solanaWallet, type SolanaWallet} from '../../support/solana-wallet.js'
import {MINUTE, newCaller, PRICE, startPaidAgent, type PaidAgent} from './served-paid-agent.js'

let agent: PaidAgent
let ownerWallet: SolanaWallet
beforeEach(async () => {
  agent = await startPaidAgent()
  ownerWallet = solanaWallet()
})
afterEach(async () => {
  await agent.stop()
})

const owner = newCaller()
const squatter = newCaller()

describe('topup squatting', () => {
  it('a squatter naming the owner\'s address first binds nothing; the owner proves control by signature, is bound and credited; the squatter gets nothing', async () => {
    const claim = await agent.topup(squatter, {payer_address: ownerWallet.address})
    expect(claim).toMatchObject({status: 200, json: {payer_address: ownerWallet.address, bound: false, credits: 0}})
    expect(claim.json.challenge.message).toContain(`caller_key: ${squatter.publicKey}`)
    // The squatter cannot prove: its own wallet's signature, or any other, is not the address's key.
    const forged = await agent.topup(squatter, {payer_address: ownerWallet.address, payer_signature: solanaWallet().signMessage(claim.json.challenge.message)})
    expect(forged).toMatchObject({status: 403, json: {error: {code: 'payer_signature_rejected', field: 'payer_signature'}}})

    // The owner deposits while only the squatter has named the address: credited to nobody.
    agent.node.addTransaction({payer: ownerWallet.address, to: agent.wallet, lamports: PRICE})
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 0})
    expect(agent.gate.credits(squatter.publicKey)).toBe(0)

    // The owner proves control with the address's key and is bound.
    const pending = await agent.topup(owner, {payer_address: ownerWallet.address})
    expect(pending).toMatchObject({status: 200, json: {bound: false}})
    const proven = await agent.topup(owner, {payer_address: ownerWallet.address, payer_signature: ownerWallet.signMessage(pending.json.challenge.message)})
    expect(proven).toMatchObject({status: 200, json: {payer_address: ownerWallet.address, bound: true, proven_by: 'signature'}})

    agent.node.addTransaction({payer: ownerWallet.address, to: agent.wallet, lamports: 2 * PRICE})
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 2})
    expect(agent.gate.credits(owner.publicKey)).toBe(2)
    expect(agent.gate.credits(squatter.publicKey)).toBe(0)

    // The squatter is now refused outright, and the owner spends the credit on a signed call.
    expect(await agent.topup(squatter, {payer_address: ownerWallet.address})).toMatchObject({status: 409, json: {error: {code: 'payer_address_taken'}}})
    expect(await agent.call('echo', {signer: owner})).toMatchObject({status: 200, json: {paid_via: 'credit'}})
    expect(agent.gate.credits(owner.publicKey)).toBe(1)
  })

  it('the owner proves control by a first deposit carrying the issued memo: bound and credited; the memo from another address proves nothing', async () => {
    expect((await agent.topup(squatter, {payer_address: ownerWallet.address})).json.bound).toBe(false)
    const pending = await agent.topup(owner, {payer_address: ownerWallet.address})
    const memo = pending.json.challenge.memo as string
    expect(memo).toMatch(/^[0-9a-f]{32}$/)
    expect(pending.json.challenge.pay_url).toContain(`memo=${memo}`)

    // Someone else's address paying with the owner's memo proves nothing about the owner's address.
    agent.node.addTransaction({payer: randomAddress(), to: agent.wallet, lamports: PRICE, memo})
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 0})
    expect((await agent.topup(owner, {payer_address: ownerWallet.address})).json.bound).toBe(false)

    agent.node.addTransaction({payer: ownerWallet.address, to: agent.wallet, lamports: 3 * PRICE, memo: `topup ${memo}`})
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 3})
    expect(agent.gate.credits(owner.publicKey)).toBe(3)
    expect(agent.gate.credits(squatter.publicKey)).toBe(0)
    expect(await agent.topup(owner, {payer_address: ownerWallet.address})).toMatchObject({status: 200, json: {bound: true, proven_by: 'memo', credits: 3}})
    expect(await agent.topup(squatter, {payer_address: ownerWallet.address})).toMatchObject({status: 409, json: {error: {code: 'payer_address_taken'}}})

    // Later deposits from the bound address, memo or not, credit the owner.
    agent.node.addTransaction({payer: ownerWallet.address, to: agent.wallet, lamports: PRICE})
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 1})
    expect(agent.gate.credits(owner.publicKey)).toBe(4)
  })

  it('an unproven claim expires: its signed message and its memo no longer bind; a fresh topup issues a new challenge', async () => {
    const stale = await agent.topup(owner, {payer_address: ownerWallet.address})
    agent.advance(30 * MINUTE + 1000)

    const late = await agent.topup(owner, {payer_address: ownerWallet.address, payer_signature: ownerWallet.signMessage(stale.json.challenge.message)})
    expect(late).toMatchObject({status: 409, json: {error: {code: 'payer_challenge_expired', field: 'payer_signature'}}})
    expect(late.json.error.message).toContain(`expired at ${stale.json.challenge.expires_at}`)
    // A deposit carrying the expired memo, landed after the expiry, binds nothing and credits nothing.
    agent.node.addTransaction({payer: ownerWallet.address, to: agent.wallet, lamports: PRICE, memo: stale.json.challenge.memo})
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 0})
    expect(agent.gate.credits(owner.publicKey)).toBe(0)

    const fresh = await agent.topup(owner, {payer_address: ownerWallet.address})
    expect(fresh.json.bound).toBe(false)
    expect(fresh.json.challenge.memo).not.toBe(stale.json.challenge.memo)
    expect(fresh.json.challenge.expires_at).toBe(new Date(agent.now() + 30 * MINUTE).toISOString())
    const proven = await agent.topup(owner, {payer_address: ownerWallet.address, payer_signature: ownerWallet.signMessage(fresh.json.challenge.message)})
    expect(proven).toMatchObject({status: 200, json: {bound: true}})
  })

  it('a deposit carrying the memo that landed before the expiry still binds when the scan reads it later', async () => {
    const pending = await agent.topup(owner, {payer_address: ownerWallet.address})
    agent.node.addTransaction({payer: ownerWallet.address, to: agent.wallet, lamports: PRICE, memo: pending.json.challenge.memo})
    agent.advance(60 * MINUTE)
    expect(await agent.gate.scanDeposits()).toEqual({handled: 1, credited: 1})
    expect(agent.gate.credits(owner.publicKey)).toBe(1)
  })
})
