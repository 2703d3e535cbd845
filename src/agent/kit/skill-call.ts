/**
 * One call of `POST /v1/<skill-id>`, without Koa (spec Agent side, Paid call
 * at an agent skill endpoint, Pay-per-call wire flow; DECISIONS Paid calls).
 * The order is the contract: Mesh-Sig (401) → input schema (400, before any
 * payment step) → payment gate (402 / 503 / replay / admitted) → handler →
 * commit on success (with the answer, which a proof keeps for its retries),
 * release on failure (a failed call spends no allowance, credit or proof).
 */
import {bearerToken} from '../../http/bearer.js'
import {bodyHash, verifyMeshSig} from '../../identity/mesh-sig.js'
import {isMeshError, MeshError} from '../../lib/errors.js'
import type {PaymentHold, PaymentReceipt} from '../payments/types.js'
import type {CheckedOptions, CompiledSkill} from './check-options.js'
import {scrubbingLogger, scrubText} from './scrub.js'
import type {Caller, SkillContext} from './types.js'

/** A JSON answer, serialised. */
export interface AgentReply {
  status: number
  /** JSON text. */
  body: string
  headers?: Record<string, string>
}

/** What the HTTP adapter hands over for one skill call. */
export interface SkillCallRequest {
  /** Path with its query string, as received: what Mesh-Sig signs (DECISIONS Mesh-Sig). */
  target: string
  /** The raw body bytes and their JSON value (undefined for an empty body). */
  raw: Buffer
  value: unknown
  /**
   * issue 24: the input's own bytes when it came inside an envelope (A2A, MCP) whose bytes change per request
   * (ids): a payment proof is bound to these, so a retry with the proof matches. Default `raw`.
   */
  inputRaw?: Buffer
  meshSig: string | undefined
  /** The audience the request was addressed to (requestAudience of its Host), for an agent with `audienceFromRequest`. */
  requestAudience: string | null
  proof: string | undefined
  authorization: string | undefined
  ip: string
  /** Runs `abort` if the caller goes away before the answer; asked only when a handler reads ctx.signal. */
  whenGone(abort: () => void): void
}

export interface SkillCaller {
  call(skill: CompiledSkill, request: SkillCallRequest): Promise<AgentReply>
  /** Aborts the signal of every running handler (the agent is stopping). */
  abortAll(): void
}

/** A caller whose Mesh-Sig verified: its key, and whether the signature names this agent (v2, issue 18). */
export interface VerifiedSigner {
  pubkey: string
  audienceBound: boolean
}

/** What verifiedCaller needs of a request. */
export interface SignedTarget {
  method: string
  target: string
  raw: Buffer
  requestAudience: string | null
}

/**
 * Verifies Mesh-Sig when present through the identity layer; null for an
 * unsigned request, a 401 MeshError for a bad one (`wrong_audience` for a v2
 * signature made for another server).
 */
export async function verifiedCaller(options: CheckedOptions, header: string | undefined, request: SignedTarget): Promise<VerifiedSigner | null> {
  if (!header) return null
  const audience = options.audience ?? request.requestAudience
  const signer = await verifyMeshSig({header, method: request.method, path: request.target, body: request.raw, nonces: options.nonces, clock: options.clock, audience})
  return {pubkey: signer.pubkey, audienceBound: signer.audience !== null}
}

const skillFailed = () => new MeshError('internal', 'skill_failed', 'The skill failed; the agent logged the error')

export function createSkillCaller(options: CheckedOptions): SkillCaller {
  const {logger, payments} = options
  const running = new Set<AbortController>()

  /** Runs the handler; answers its JSON or throws the error to answer (a MeshError as is, anything else 500 `skill_failed`, logged). */
  async function run(skill: CompiledSkill, input: unknown, caller: Caller, credential: string | null, payment: PaymentReceipt | null, request: SkillCallRequest): Promise<AgentReply> {
    let controller: AbortController | undefined
    // The signal is made only for handlers that read it: most never do, and the hot path stays allocation-light.
    const context: SkillContext = {
      skill: skill.id,
      caller,
      credential,
      payment,
      logger: credential ? scrubbingLogger(logger, credential) : logger,
      get signal() {
        if (!controller) {
          const made = new AbortController()
          controller = made
          running.add(made)
          request.whenGone(() => made.abort(new Error('The caller went away')))
        }
        return controller.signal
      },
    }
    try {
      const output = await skill.handler(input, context)
      const body = output === undefined ? 'null' : JSON.stringify(output)
      // JSON.stringify answers undefined for a function or symbol: the handler returned no JSON.
      if (typeof body !== 'string') throw new TypeError(`the handler returned ${typeof output}, not JSON`)
      return {status: 200, body}
    } catch (error) {
      if (isMeshError(error) && error.kind !== 'internal') throw error
      logger.error('skill failed', {skill: skill.id, error: scrubText(String((error as Error)?.stack ?? error), credential)})
      throw isMeshError(error) ? error : skillFailed()
    } finally {
      if (controller) running.delete(controller)
    }
  }

  /** commit/release: a store hiccup here must not turn a served answer into an error; it is logged for the operator. */
  async function settle(hold: PaymentHold, skill: CompiledSkill, reply: AgentReply | null) {
    const step = reply ? 'commit' : 'release'
    try {
      // The answer goes with the commit: a proof keeps it for an idempotent replay (issue 18).
      await (reply ? hold.commit(reply) : hold.release())
    } catch (error) {
      logger.error(`payment ${step} failed`, {skill: skill.id, error: String((error as Error)?.message ?? error)})
    }
  }

  return {
    async call(skill, request) {
      const signer = request.meshSig ? await verifiedCaller(options, request.meshSig, {...request, method: 'POST'}) : null
      // An empty body is the empty object: the prober's `POST {}` and a bodiless POST mean the same.
      const input = request.value === undefined ? {} : request.value
      skill.check?.(input)
      const caller: Caller = {pubkey: signer?.pubkey ?? null, ip: request.ip, audienceBound: signer?.audienceBound ?? false}
      const credential = request.authorization ? (bearerToken(request.authorization) ?? null) : null
      if (skill.lamports === null) return run(skill, input, caller, credential, null, request)

      const decision = await payments!.admit({
        skillId: skill.id,
        resource: skill.resource,
        bodyHash: bodyHash(request.inputRaw ?? request.raw),
        lamports: skill.lamports,
        caller,
        proof: request.proof?.trim() || null,
      })
      if (decision.kind === 'challenge') {
        return {status: 402, headers: decision.challenge.headers, body: JSON.stringify(decision.challenge.body)}
      }
      // Issue 18: the proof already bought this call's answer; the handler does not run again.
      if (decision.kind === 'replay') return {status: decision.answer.status, body: decision.answer.body, headers: decision.answer.headers}
      const hold = decision.hold
      let reply: AgentReply
      try {
        reply = await run(skill, input, caller, credential, hold.receipt, request)
      } catch (error) {
        await settle(hold, skill, null)
        throw error
      }
      await settle(hold, skill, reply)
      return reply
    },
    abortAll() {
      for (const controller of running) controller.abort(new Error('The agent is stopping'))
    },
  }
}
