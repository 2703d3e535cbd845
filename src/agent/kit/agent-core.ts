/**
 * The agent contract without Koa: what each route answers (spec Agent side,
 * every agent implements). src/agent/http/ maps HTTP onto it.
 */
import {didKeyFromPublicKey} from '../../identity/did-key.js'
import {invalid, unauthorized} from '../../lib/errors.js'
import type {PublicCard} from '../../protocol/agent-card.js'
import {a2aCardFromPublicCard, type A2AAgentCard} from '../a2a-card.js'
import type {CheckedOptions, CompiledSkill} from './check-options.js'
import {A2A_CARD_PATH, A2A_RPC_PATH, BANNER_SERVICE, MCP_PATH, TASKS_PATH_PREFIX, TASKS_SEND_PATH, HEALTH_PATH, PUBLIC_CARD_PATH, TOPUP_PATH, WHOAMI_PATH} from './constants.js'
import type {A2AService} from './a2a-service.js'
import type {McpServerFactory} from './mcp-tools.js'
import {servedDocument, type ServedDocument} from './served-document.js'
import {answerSkill, type SkillAnswer} from './skill-answer.js'
import {createSkillCaller, verifiedCaller, type AgentReply, type SignedTarget, type SkillCallRequest, type VerifiedSigner} from './skill-call.js'

/** A request whose Mesh-Sig is checked over its exact target and body. */
export interface SignedRequest extends SignedTarget {
  meshSig: string | undefined
  value?: unknown
}

export interface AgentCore {
  readonly agentId: string
  readonly card: PublicCard
  readonly a2aCard: A2AAgentCard
  readonly bodyLimit: number
  readonly skills: ReadonlyMap<string, CompiledSkill>
  readonly publicCardDocument: ServedDocument
  readonly a2aCardDocument: ServedDocument
  /** `GET /`: serialised once. */
  readonly banner: string
  /** `POST /v1/topup` is served (the gate takes prepaid credit). */
  readonly topupEnabled: boolean
  /** v2 Mesh-Sig is checked against the audience each request names: the adapter hands it over (issue 18). */
  readonly audienceFromRequest: boolean
  health(): AgentReply | Promise<AgentReply>
  whoami(request: SignedRequest): Promise<AgentReply>
  topup(request: SignedRequest): Promise<AgentReply>
  callSkill(skill: CompiledSkill, request: SkillCallRequest): Promise<AgentReply>
  /** The same call, its refusal answered rather than thrown: what A2A and MCP wrap (issue 24). */
  answerSkill(skill: CompiledSkill, request: SkillCallRequest): Promise<SkillAnswer>
  /** The A2A server, built on the first A2A request (the SDK loads then, not at start-up). */
  a2a(): Promise<A2AService>
  /** Builds the MCP server of one request; the SDK loads on the first. */
  mcp(): Promise<McpServerFactory>
  abortAll(): void
}

const json = (status: number, value: unknown): AgentReply => ({status, body: JSON.stringify(value)})

export function createAgentCore(options: CheckedOptions): AgentCore {
  const {agentId, card, logger, payments, ready} = options
  const a2aCard = a2aCardFromPublicCard(card)
  const topupEnabled = typeof payments?.topup === 'function'
  const caller = createSkillCaller(options)
  const endpoints = [
    `GET ${PUBLIC_CARD_PATH}`,
    `GET ${A2A_CARD_PATH}`,
    `GET ${HEALTH_PATH}`,
    `GET ${WHOAMI_PATH}`,
    `POST ${A2A_RPC_PATH}`,
    `POST ${TASKS_SEND_PATH}`,
    `GET ${TASKS_PATH_PREFIX}<id>`,
    `POST ${MCP_PATH}`,
    ...[...options.skills.values()].map((skill) => `POST ${skill.resource}`),
    ...(topupEnabled ? [`POST ${TOPUP_PATH}`] : []),
  ]
  const answer = (skill: CompiledSkill, request: SkillCallRequest) => answerSkill(caller, skill, request)
  let a2a: Promise<A2AService> | undefined
  let mcp: Promise<McpServerFactory> | undefined
  const alwaysHealthy: AgentReply = json(200, {ok: true, agent_id: agentId})

  /** Mesh-Sig that must be there: 401 `signature_required` without it, the identity layer's 401 when it fails. */
  async function requireSigner(request: SignedRequest): Promise<VerifiedSigner> {
    if (!request.meshSig) throw unauthorized('signature_required', `${request.method} ${request.target.split('?')[0]} needs a Mesh-Sig signed request`)
    return (await verifiedCaller(options, request.meshSig, request))!
  }

  return {
    agentId,
    card,
    a2aCard,
    bodyLimit: options.bodyLimit,
    skills: options.skills,
    publicCardDocument: servedDocument(card),
    a2aCardDocument: servedDocument(a2aCard),
    banner: JSON.stringify({service: BANNER_SERVICE, role: 'agent', name: card.name, version: card.version, endpoints}),
    topupEnabled,
    audienceFromRequest: options.audience === null,

    // spec: `{ok, agent_id, upstream_ready?}`; without a hook the agent is up whenever it answers.
    health() {
      if (!ready) return alwaysHealthy
      return (async () => {
        let up = false
        try {
          up = (await ready()) === true
        } catch (error) {
          logger.warn('readiness hook failed', {agent_id: agentId, error: String((error as Error)?.message ?? error)})
        }
        return json(up ? 200 : 503, {ok: up, agent_id: agentId, upstream_ready: up})
      })()
    },

    // spec: `GET /v1/whoami`, the reference signature verifier; `audience_bound` (issue 18) says whether the signature was v2 naming this agent.
    async whoami(request) {
      const {pubkey, audienceBound} = await requireSigner(request)
      return json(200, {pubkey, did: didKeyFromPublicKey(pubkey), verified: true, audience_bound: audienceBound})
    },

    // spec prepaid alternative: `POST /v1/topup {payer_address}` asks to bind the address to the signed caller's key;
    // issue 18: the gate binds only on proof of control (`payer_signature`, or a first deposit with the issued memo).
    async topup(request) {
      const {pubkey} = await requireSigner(request)
      const body = request.value as {payer_address?: unknown; payer_signature?: unknown} | undefined
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw invalid('invalid_input', 'The body must be a JSON object {"payer_address": "<address>", "payer_signature"?: "<signature>"}', {field: '$'})
      }
      if (typeof body.payer_address !== 'string' || body.payer_address.trim() === '') {
        throw invalid('invalid_input', 'payer_address must be the address you will pay from', {field: 'payer_address'})
      }
      if (body.payer_signature !== undefined && typeof body.payer_signature !== 'string') {
        throw invalid('invalid_input', "payer_signature must be the payer address's signature of the challenge message, as a string", {field: 'payer_signature'})
      }
      const payerSignature = body.payer_signature?.trim()
      return json(200, await payments!.topup!({pubkey, payerAddress: body.payer_address.trim(), ...(payerSignature === undefined ? {} : {payerSignature})}))
    },

    callSkill: caller.call,
    answerSkill: answer,
    a2a() {
      a2a ??= import('./a2a-service.js').then((module) => module.createA2AService(a2aCard, {skills: options.skills, answer}))
      return a2a
    },
    mcp() {
      mcp ??= import('./mcp-tools.js').then((module) => module.createMcpServerFactory({card, skills: options.skills, answer}))
      return mcp
    },
    abortAll: caller.abortAll,
  }
}
