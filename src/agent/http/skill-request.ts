/**
 * What a skill call needs of its HTTP request, whichever route carried it
 * (`/v1/<id>`, A2A, MCP): the signed target and bytes, the Mesh-Sig, proof
 * and bearer headers, the caller's address and a way to hear it go away.
 */
import type {Context} from 'koa'
import {requestAudience} from '../../identity/audience.js'
import {MESH_SIG_HEADER} from '../../identity/constants.js'
import type {AgentCore} from '../kit/agent-core.js'
import {PROOF_HEADER} from '../kit/constants.js'
import type {SkillCallRequest} from '../kit/skill-call.js'

/** Everything but the input (`value`, `inputRaw`), which each route takes from its own envelope. */
export type SkillRequestBase = Omit<SkillCallRequest, 'value' | 'inputRaw'>

/**
 * issue 18: the origin the request was addressed to (Koa reads X-Forwarded-Proto/Host only when the host trusts
 * its proxy), for an agent that checks v2 Mesh-Sig against it; null when the agent knows its public URL.
 */
export const audienceOf = (core: AgentCore, ctx: Context) => (core.audienceFromRequest ? requestAudience(ctx.protocol, ctx.host) : null)

export function skillRequestOf(core: AgentCore, ctx: Context, raw: Buffer): SkillRequestBase {
  const headers = ctx.req.headers
  return {
    target: ctx.originalUrl,
    raw,
    meshSig: headers[MESH_SIG_HEADER] as string | undefined,
    requestAudience: audienceOf(core, ctx),
    proof: headers[PROOF_HEADER] as string | undefined,
    authorization: headers.authorization,
    ip: ctx.ip,
    whenGone(abort) {
      const response = ctx.res
      response.once('close', () => {
        if (!response.writableFinished) abort()
      })
    },
  }
}
