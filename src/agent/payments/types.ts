/**
 * The seam between the agent kit and pay-per-call (spec: Paid call at an
 * agent skill endpoint, Pay-per-call wire flow, prepaid alternative;
 * DECISIONS: Paid calls, RPC failures, Free allowance). The kit validates
 * the body, then asks the gate; the gate answers "admitted" (with a hold to
 * commit after the handler succeeds or release after it fails) or a 402
 * challenge, or throws a 503 MeshError (`retry_after`) when the chain node
 * cannot be asked.
 */
import type {PaymentChallengeBody} from '../../protocol/agent-card.js'

/** A call to a paid skill, as the gate sees it. */
export interface PaidCall {
  skillId: string
  /** The skill path, `/v1/<id>`: the challenge's `resource`. */
  resource: string
  /** Lowercase hex SHA-256 of the raw body: "the same call" is the same resource and body. */
  bodyHash: string
  /** Integer lamports the skill costs. */
  lamports: bigint
  /** audienceBound (issue 18): a Mesh-Sig v2 naming this agent; only such a caller spends prepaid credit (absent = false). */
  caller: {pubkey: string | null; ip: string; audienceBound?: boolean}
  /** `X-Payment-Proof` (a transaction signature), or null. */
  proof: string | null
}

/** How an admitted call is paid for; handed to the handler as `ctx.payment`. */
export interface PaymentReceipt {
  /** allowance: the free daily allowance; proof: a verified transaction; entitlement: a retry of a call that proof already bought; credit: prepaid balance. */
  via: 'allowance' | 'proof' | 'entitlement' | 'credit'
  /** The transaction signature for `proof` and `entitlement`. */
  signature?: string
  /** Calls left in today's allowance, for `allowance`. */
  allowanceLeft?: number
  /** Credits left, for `credit`. */
  creditsLeft?: number
}

/** An admitted call: what pays for it, held until the handler has answered. */
export interface PaymentHold {
  receipt: PaymentReceipt
  /** The handler succeeded: the allowance, credit or proof is spent. */
  commit(): Promise<void>
  /** The handler failed (status ≥ 400): give it back, as if the call never happened. */
  release(): Promise<void>
}

/** A 402: the four X-Payment-* headers and the challenge body (spec Payment challenge). */
export interface PaymentChallenge {
  headers: Record<string, string>
  body: PaymentChallengeBody
  /**
   * Why the 402, for logs and tests (not on the wire): `payment_required`
   * for an unpaid call, else the proof check that failed (see
   * src/agent/payments/hints.ts, PaymentRefusal).
   */
  reason?: string
}

export type GateDecision = {kind: 'admitted'; hold: PaymentHold} | {kind: 'challenge'; challenge: PaymentChallenge}

/** spec prepaid alternative: `POST /v1/topup {payer_address}` binds the address to the caller's key. */
export interface TopupRequest {
  /** The signed caller's public key: the balance belongs to it. */
  pubkey: string
  payerAddress: string
}

export interface PaymentGate {
  /** Decides a paid call; throws MeshError `unavailable` (503, details.retry_after) when the chain node errors or times out. */
  admit(call: PaidCall): Promise<GateDecision>
  /** Prepaid: binds a payer address and answers the deposit instructions (JSON). Absent when prepaid is off. */
  topup?(request: TopupRequest): Promise<Record<string, unknown>>
  /** Starts background work (the periodic deposit scan). */
  start?(): Promise<void> | void
  /** Stops background work and releases the store. */
  close(): Promise<void>
}
