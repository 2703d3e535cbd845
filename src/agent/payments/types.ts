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

/** A call to a paid skill, as the gate sees it. A 402's nonce is bound to the call's resource, price, body hash and signer (issue 18). */
export interface PaidCall {
  skillId: string
  /** The skill path, `/v1/<id>`: the challenge's `resource`. */
  resource: string
  /** Lowercase hex SHA-256 of the raw body: "the same call" is the same resource, body and signer. */
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
  /**
   * allowance: the free daily allowance; proof: a verified transaction;
   * credit: prepaid balance. (A retry with a proof that already bought its
   * answer never reaches the handler: the stored answer is replayed.)
   */
  via: 'allowance' | 'proof' | 'credit'
  /** The transaction signature for `proof`. */
  signature?: string
  /** Calls left in today's allowance, for `allowance`. */
  allowanceLeft?: number
  /** Credits left, for `credit`. */
  creditsLeft?: number
}

/** A paid call's answer as the kit sends it (status, JSON body, headers): what a proof's retry gets again. */
export interface PaidAnswer {
  status: number
  /** JSON text. */
  body: string
  headers?: Record<string, string>
}

/** An admitted call: what pays for it, held until the handler has answered. */
export interface PaymentHold {
  receipt: PaymentReceipt
  /**
   * The handler succeeded: the allowance, credit or proof is spent. A proof
   * keeps `answer` (up to the size cap) so a retry with it gets the same
   * answer without running the handler again.
   */
  commit(answer?: PaidAnswer): Promise<void>
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

/**
 * admitted: run the handler, then settle the hold; challenge: answer the
 * 402; replay: the proof already bought this call's answer, answer it again
 * without running the handler (issue 18: one payment buys one answer).
 */
export type GateDecision =
  | {kind: 'admitted'; hold: PaymentHold}
  | {kind: 'challenge'; challenge: PaymentChallenge}
  | {kind: 'replay'; answer: PaidAnswer; signature: string}

/**
 * spec prepaid alternative: `POST /v1/topup {payer_address}` asks to bind
 * the address to the caller's key; issue 18: the binding needs proof of
 * control, `payer_signature` (the address's key signing the issued message)
 * or a first deposit carrying the issued memo.
 */
export interface TopupRequest {
  /** The signed caller's public key: the balance belongs to it. */
  pubkey: string
  payerAddress: string
  /** Base58 (or padded base64) Ed25519 signature by the payer address's key over the issued challenge message. */
  payerSignature?: string
}

export interface PaymentGate {
  /** Decides a paid call; throws MeshError `unavailable` (503, details.retry_after) when the chain node errors or times out. */
  admit(call: PaidCall): Promise<GateDecision>
  /** Prepaid: answers the proof-of-control challenge or, once proven, the binding and deposit instructions (JSON). Absent when prepaid is off. */
  topup?(request: TopupRequest): Promise<Record<string, unknown>>
  /** Starts background work (the periodic deposit scan). */
  start?(): Promise<void> | void
  /** Stops background work and releases the store. */
  close(): Promise<void>
}
