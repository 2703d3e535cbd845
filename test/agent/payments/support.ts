/** Shared set-up of the gate-level payment tests: a local chain node, a clock, a gate and small call helpers. */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect} from 'vitest'
import {createPayments, type Payments} from '../../../src/agent/payments/gate.js'
import type {CreatePaymentsOptions} from '../../../src/agent/payments/options.js'
import type {GateDecision, PaidAnswer, PaidCall, PaymentChallenge, PaymentHold} from '../../../src/agent/payments/types.js'
import {randomAddress, startSolanaRpc, type AddTransaction, type SolanaRpcServer} from '../../support/solana-rpc.js'
import {solanaWallet, type SolanaWallet} from '../../support/solana-wallet.js'

export const PRICE = 1_000_000n
export const MINUTE = 60_000
export const DAY = 24 * 60 * MINUTE

export interface PaymentsWorld {
  node: SolanaRpcServer
  wallet: string
  /** The payer's address: a real Ed25519 key (`payerWallet`), so it can prove control for prepaid. */
  payer: string
  payerWallet: SolanaWallet
  /** The shared clock (ms); tests move it with `advance`. */
  now(): number
  advance(ms: number): void
  gate: Payments
  /** Closes the gate and opens another on the same options (same data dir): a restart. */
  restart(): Promise<Payments>
  open(over?: Partial<CreatePaymentsOptions>): Payments
  close(): Promise<void>
}

/** A node, a clock at a fixed instant, and a gate over them (data dir in a temp folder unless `db` is given). */
export async function paymentsWorld(over: Partial<CreatePaymentsOptions> = {}): Promise<PaymentsWorld> {
  let nowMs = Date.UTC(2026, 5, 1, 12, 0, 0)
  const clock = () => nowMs
  const node = await startSolanaRpc({clock})
  const wallet = randomAddress()
  const dataDir = over.db ? undefined : mkdtempSync(join(tmpdir(), 'mesh-agent-payments-'))
  const gates: Payments[] = []
  const options = (extra: Partial<CreatePaymentsOptions> = {}): CreatePaymentsOptions => ({wallet, rpcUrl: node.url, freePerDay: 2, clock, dataDir, rpcTimeoutMs: 2000, ...over, ...extra})
  const open = (extra: Partial<CreatePaymentsOptions> = {}) => {
    const gate = createPayments(options(extra))
    gates.push(gate)
    return gate
  }
  const payerWallet = solanaWallet()
  const world: PaymentsWorld = {
    node,
    wallet,
    payer: payerWallet.address,
    payerWallet,
    now: clock,
    advance(ms) {
      nowMs += ms
    },
    gate: open(),
    async restart() {
      await world.gate.close()
      world.gate = open()
      return world.gate
    },
    open,
    async close() {
      for (const gate of gates) await gate.close()
      await node.close()
      if (dataDir) rmSync(dataDir, {recursive: true, force: true})
    },
  }
  return world
}

/** A paid call to `/v1/echo` with body hash `h1` from a signed caller, unless overridden. */
export function paidCall(over: Partial<PaidCall> = {}): PaidCall {
  return {
    skillId: 'echo',
    resource: '/v1/echo',
    bodyHash: 'h1',
    lamports: PRICE,
    caller: {pubkey: 'cGsxAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', ip: '10.0.0.1'},
    proof: null,
    ...over,
  }
}

/** What a decision is, in words, for failure messages. */
function described(decision: GateDecision): string {
  if (decision.kind === 'admitted') return `admitted via ${decision.hold.receipt.via}`
  if (decision.kind === 'replay') return `a replay of ${decision.signature}`
  return `a 402 (${decision.challenge.reason}): ${decision.challenge.body.hint}`
}

export function expectAdmitted(decision: GateDecision): PaymentHold {
  if (decision.kind !== 'admitted') throw new Error(`expected admitted, got ${described(decision)}`)
  return decision.hold
}

export function expectChallenge(decision: GateDecision, reason?: string): PaymentChallenge {
  if (decision.kind !== 'challenge') throw new Error(`expected a 402, got ${described(decision)}`)
  if (reason) expect(decision.challenge.reason).toBe(reason)
  return decision.challenge
}

/** A retry served with the stored answer of the paid call (issue 18). */
export function expectReplay(decision: GateDecision): PaidAnswer {
  if (decision.kind !== 'replay') throw new Error(`expected a replay, got ${described(decision)}`)
  return decision.answer
}

/** An answer as the kit would commit it. */
export const answer = (text = 'ok'): PaidAnswer => ({status: 200, body: JSON.stringify({text})})

/** The nonce of a challenge (header and offer agree). */
export function nonceOf(challenge: PaymentChallenge): string {
  expect(challenge.headers['X-Payment-Nonce']).toBe(challenge.body.accepts[0].nonce)
  return challenge.body.accepts[0].nonce
}

let payers = 0

/**
 * Asks for a challenge, pays it on the node as told, and returns the
 * signature. The 402 goes to an unsigned caller (so its nonce binds the
 * skill, price and body, and no key) unless `asSigner`: then to `call`'s own
 * caller key, which the nonce is then bound to.
 */
export async function payFor(world: PaymentsWorld, call: PaidCall = paidCall(), tx: Partial<AddTransaction> = {}, asSigner = false): Promise<string> {
  const gate = world.gate
  const unpaid = {...call, proof: null, caller: {pubkey: asSigner ? call.caller.pubkey : null, ip: `192.0.2.${(payers += 1)}`}}
  // Use up that IP's allowance first, if any, so the gate challenges.
  let decision = await gate.admit(unpaid)
  while (decision.kind === 'admitted') {
    await decision.hold.commit()
    decision = await gate.admit(unpaid)
  }
  const nonce = nonceOf(expectChallenge(decision))
  return world.node.addTransaction({payer: world.payer, to: world.wallet, lamports: call.lamports, memo: nonce, ...tx})
}

/** Prepaid: binds `payer` (default the world's) to `pubkey` the way its owner does: topup, sign the challenge message, topup with the signature. */
export async function provePayer(world: PaymentsWorld, pubkey: string, payer: SolanaWallet = world.payerWallet): Promise<Record<string, unknown>> {
  const pending = (await world.gate.topup!({pubkey, payerAddress: payer.address})) as {bound: boolean; challenge: {message: string}}
  expect(pending.bound).toBe(false)
  return world.gate.topup!({pubkey, payerAddress: payer.address, payerSignature: payer.signMessage(pending.challenge.message)})
}
