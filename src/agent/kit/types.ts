/**
 * The seam of the agent kit (`createAgent`, src/agent/kit/): what an agent's
 * author writes (skill handlers) and what the kit hands them. Transport-free:
 * handlers never see Koa.
 */
import type {NonceStore} from '../../identity/nonce-store.js'
import type {Logger} from '../../lib/log.js'
import type {PublicCard} from '../../protocol/agent-card.js'
import type {PaymentGate, PaymentReceipt} from '../payments/types.js'

/** Who is calling, as far as the kit could verify. */
export interface Caller {
  /** The verified `Mesh-Sig` public key (base64 of 32 bytes); null for an unsigned request. */
  pubkey: string | null
  /** The client address (the proxy's when the agent sits behind one). */
  ip: string
  /**
   * issue 18: the signature is Mesh-Sig v2 and names this agent. False for
   * v1 (which names no server: it may be a call made for another agent and
   * forwarded here) and for unsigned calls. Prepaid credit is spent only
   * when true; grant nothing per key on a false one that you would not give
   * to whoever holds a copy of the request.
   */
  audienceBound: boolean
}

/** What a skill handler receives beside its validated input. */
export interface SkillContext {
  /** The skill id (the path segment of `POST /v1/<id>`). */
  skill: string
  caller: Caller
  /**
   * spec Authentication 6, bring-your-own-key: the caller's own provider
   * credential from `Authorization: Bearer`, or null. Never logged by the kit.
   */
  credential: string | null
  /** How a paid skill was paid for; null for a free skill. */
  payment: PaymentReceipt | null
  /** Aborted when the caller goes away or the agent stops. */
  signal: AbortSignal
  logger: Logger
}

/**
 * One skill's code: takes the JSON body (already validated against the
 * skill's input schema) and returns the JSON answer. Throwing a MeshError
 * answers its status and code; anything else answers 500 `skill_failed`.
 * A thrown error (status ≥ 400) consumes no allowance, credit or proof.
 */
export type SkillHandler<Input = any, Output = unknown> = (input: Input, ctx: SkillContext) => Promise<Output> | Output

export type SkillHandlers = Record<string, SkillHandler>

export interface CreateAgentOptions {
  /** The PublicCard served at `/.well-known/agent.json`; its `skills[].id` name the handlers. */
  card: PublicCard
  /** skill id → handler; every card skill needs one and every handler a card skill (TypeError otherwise). */
  skills: SkillHandlers
  /** The id `/health` reports; default: the card's name in kebab-case. */
  agentId?: string
  /**
   * Pay-per-call (src/agent/payments/). Required when the card prices a
   * skill (TypeError otherwise); also serves `POST /v1/topup` when the gate
   * supports prepaid credit.
   */
  payments?: PaymentGate
  /** Where used Mesh-Sig nonces are remembered; default an in-memory store. */
  nonces?: NonceStore
  /**
   * The agent's public base URL: a Mesh-Sig v2 signature must name its origin
   * (issue 18). Default: the card's `url` (spec: the agent's base URL).
   */
  publicUrl?: string
  /**
   * Check v2 signatures against the origin each request was addressed to
   * (Host, or X-Forwarded-Proto/Host when the host trusts its proxy) instead:
   * for an agent behind a proxy that does not know its public address.
   * Weaker (a replayer chooses the Host he sends); not with `publicUrl`.
   */
  audienceFromRequest?: boolean
  /** Readiness hook: its answer is `/health`'s `upstream_ready` (and `ok` follows it). */
  ready?: () => boolean | Promise<boolean>
  /** Milliseconds clock; default Date.now. */
  clock?: () => number
  logger?: Logger
  /** Request body cap in bytes; default 1 MiB. */
  bodyLimit?: number
}
