/**
 * The ask/poll surface of exposed members (spec: Endpoints `/team/<id>/ask`,
 * `/team/requests/<request_id>`; Authentication; Errors): a caller holding
 * the member's token (plus `X-Mesh-Project`) asks, gets `202 {request_id,
 * conv}` and polls until `done` or `error`. The token grants these two
 * routes for that member and nothing else; once the member is back to
 * `internal` (revoke) every outstanding ask answers 403. docs/daemon-api.md, Ask.
 */
import {forbidden, notFound, unauthorized} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import type {DaemonContext} from '../context.js'
import {PROJECT_HEADER} from '../constants.js'
import {answer, type Route, type RouteRequest} from '../route-table.js'
import {listMembers, memberIdOf, readMember} from '../team/cards.js'
import {verifyMemberToken} from '../team/member-tokens.js'
import {ASK_CONV_PREFIX, ASK_REQUESTS_KEPT, ASK_RESULT_TTL_MS, newId} from './constants.js'
import type {Engine} from './engine.js'
import type {FinalHook} from './types.js'
import {bearerToken} from '../../http/bearer.js'

export interface AskRecord {
  request_id: string
  member: string
  conv: string
  turn_id: string
  created_at: number
  /** Set from the turn's final, so the answer outlives the engine's memory of the turn. */
  result?: {status: 'done' | 'error'; result_text: string; at: number}
}

export function createAsks(context: DaemonContext, engine: Engine) {
  const asks = new Map<string, AskRecord>()

  const prune = () => {
    const now = context.clock()
    for (const [id, record] of asks) {
      if (asks.size <= ASK_REQUESTS_KEPT && (!record.result || now - record.result.at < ASK_RESULT_TTL_MS)) break
      if (record.result) asks.delete(id)
    }
  }

  /**
   * What every ask and poll checks first, and says nothing about the project
   * (issue 19; docs/daemon-api.md, Ask): a token is presented (401), the
   * project header is there (401) and names this project (403, without
   * naming the one served). Only then is a member or a request looked up.
   */
  function assertCallerShape(request: RouteRequest): string {
    const token = bearerToken(request.headers.authorization)
    if (!token) throw unauthorized('member_token_required', `This route needs a member token: Authorization: Bearer <token>`)
    const named = request.headers[PROJECT_HEADER]
    if (named === undefined) throw unauthorized('project_header_required', `Asks need the ${PROJECT_HEADER} header naming this project (the perimeter checks it matches)`)
    const value = Array.isArray(named) ? named[0] : named
    if (value !== context.projectId()) throw forbidden('project_mismatch', `${PROJECT_HEADER} names ${JSON.stringify(value.slice(0, 80))}, which is not the project this daemon serves`)
    return token
  }

  /** Then, in this order: the member is internal 403; the token is another member's 403; it is no member's 401. */
  async function assertMemberToken(member: string, token: string) {
    const card = await readMember(context, member)
    if (card.exposure !== 'external' || card.problem) throw forbidden('member_not_exposed', `${member} is not exposed (exposure internal): its asks are refused`)
    if (await verifyMemberToken(context, member, token)) return
    for (const other of await listMembers(context)) {
      if (other.id !== member && (await verifyMemberToken(context, other.id, token))) throw forbidden('token_member_mismatch', `This token is not ${member}'s: a member token grants its own member's ask and poll routes only`)
    }
    throw unauthorized('invalid_member_token', `The token is not a valid member token (rotated or never issued)`)
  }

  function statusOf(record: AskRecord) {
    if (record.result) return {status: record.result.status, result_text: record.result.result_text}
    const turn = engine.turn(record.turn_id)
    switch (turn?.status) {
      case 'running':
        return {status: 'running', result_text: null}
      case 'done':
        return {status: 'done', result_text: turn.text ?? ''}
      case 'failed':
        return {status: 'error', result_text: turn.text || `the turn failed (${turn.reason ?? 'unknown'})`}
      default:
        return {status: 'queued', result_text: null}
    }
  }

  const finalHook: FinalHook = (final) => {
    for (const input of final.inputs) {
      const record = typeof input.meta?.request_id === 'string' ? asks.get(input.meta.request_id) : undefined
      if (!record) continue
      record.result = final.status === 'done' ? {status: 'done', result_text: final.text, at: context.clock()} : {status: 'error', result_text: final.text || `the turn failed (${final.reason ?? 'unknown'})`, at: context.clock()}
    }
  }

  const routes: Route[] = [
    {
      method: 'POST',
      path: '/team/:id/ask',
      auth: 'member',
      async handle(request) {
        const token = assertCallerShape(request)
        const member = memberIdOf(request.params.id)
        // An unknown member is 404 here (readMember), to a caller who showed a token for this project.
        await assertMemberToken(member, token)
        const {text, session} = assertValid<{text: string; session?: string}>('daemon-team-ask', await request.body())
        const conv = `${ASK_CONV_PREFIX}${member}-${session ?? newId('').toLowerCase()}`.toLowerCase()
        const request_id = newId('req_')
        const started = await engine.submit({conv, member, text, author: 'caller', origin: 'ask', meta: {request_id}})
        asks.set(request_id, {request_id, member, conv, turn_id: started.turn_id, created_at: context.clock()})
        prune()
        context.debug.log({lvl: 'info', tag: 'chat.ask', msg: `ask ${request_id} to ${member} in ${conv}`, conv, agent_id: member})
        return answer({request_id, conv}, 202)
      },
    },
    {
      method: 'GET',
      path: '/team/requests/:request_id',
      auth: 'member',
      async handle(request) {
        const token = assertCallerShape(request)
        const record = asks.get(request.params.request_id)
        if (!record) throw notFound('request_not_found', `No ask request ${String(request.params.request_id).slice(0, 40)}`)
        await assertMemberToken(record.member, token)
        return {request_id: record.request_id, ...statusOf(record), conv: record.conv}
      },
    },
  ]
  return {routes, finalHook}
}
