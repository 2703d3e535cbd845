/**
 * A skill call as one answer, whatever happened: what A2A and MCP carry
 * inside their own envelopes (issue 24). The call itself is the one
 * `POST /v1/<id>` makes (createSkillCaller: Mesh-Sig, input check, payment
 * gate, handler, commit/release); only the refusal is turned from a thrown
 * MeshError into a reply with the status and body `/v1/<id>` would send.
 */
import {STATUS_OF_KIND} from '../../http/error-middleware.js'
import {isMeshError} from '../../lib/errors.js'
import type {CompiledSkill} from './check-options.js'
import type {AgentReply, SkillCallRequest, SkillCaller} from './skill-call.js'

/** A reply whose body is also parsed: the envelopes carry the JSON value, not its text. */
export interface SkillAnswer extends AgentReply {
  value: unknown
}

const INTERNAL: SkillAnswer = {status: 500, body: '{"error":{"code":"skill_failed","message":"The skill failed"}}', value: {error: {code: 'skill_failed', message: 'The skill failed'}}}

/** Calls the skill through the shared path; never throws a MeshError (anything else is a bug and is rethrown). */
export async function answerSkill(caller: SkillCaller, skill: CompiledSkill, request: SkillCallRequest): Promise<SkillAnswer> {
  try {
    const reply = await caller.call(skill, request)
    return {...reply, value: JSON.parse(reply.body)}
  } catch (error) {
    if (!isMeshError(error)) return INTERNAL
    const value = {error: {code: error.code, message: error.message, ...(error.field ? {field: error.field} : {}), ...error.details}}
    return {status: STATUS_OF_KIND[error.kind], body: JSON.stringify(value), value}
  }
}
