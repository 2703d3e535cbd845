/**
 * One hand-off (spec: Delegation v33/v34, item 1): the first brief to a
 * member opens its single session `m-<member>`; later ones, from anyone, go
 * to the same session and are merged into its next turn when it is live.
 * Each brief is an open row of the ledger until a report closes it.
 * docs/daemon.md, Delegation; docs/daemon-api.md, Delegation.
 */
import {conflict, isMeshError, notFound} from '../../../lib/errors.js'
import type {DaemonContext} from '../../context.js'
import {memberIdOf, readMember} from '../../team/cards.js'
import type {ChatEngine, SubmitResult} from '../types.js'
import {OPERATOR, REFUSAL_STATUS, sessionMemberOf, sessionOf} from './constants.js'
import {refusalError, type Ledger, type Requester} from './ledger.js'
import {briefText} from './render.js'

export interface DelegateRequest {
  /** The conv the brief comes from; omitted (or null): the operator asks, and no one is woken by the report. */
  from_conv?: string | null
  /** The member (profile) that wrote the brief; default the conv's member. */
  from_member?: string
  member: string
  brief: string
  task?: string
  initiative?: string
  /** The chain to judge and record instead of the requester's (the git-manager rule keeps the reporter's). */
  chain?: string[]
}

export interface DelegateAnswer {
  conv: string
  request_id: string
  member: string
  /** The member's session existed before this brief. */
  reused: boolean
  /** Open requests on that session, this one included. */
  open_requests: number
  /** The chain's length: how many members stand between the root and the new session. */
  depth: number
  /** The engine's answer: a turn started, or the brief waits (merged) for the session's next turn. */
  state: SubmitResult['state']
  turn_id: string
}

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

/** Who asks: the operator, or the member writing in `from_conv` (its conv's member unless the caller names the profile). */
function requesterOf(engine: ChatEngine, request: DelegateRequest): Requester {
  if (request.from_conv === undefined || request.from_conv === null) return {conv: null, member: OPERATOR}
  const member = request.from_member ?? engine.conversation(request.from_conv)?.member ?? sessionMemberOf(request.from_conv)
  if (!member) throw notFound('conv_not_found', `No conversation ${request.from_conv}`, {field: 'from_conv'})
  return {conv: request.from_conv, member}
}

export async function delegate(context: DaemonContext, engine: ChatEngine, ledger: Ledger, request: DelegateRequest): Promise<DelegateAnswer> {
  const target = memberIdOf(request.member)
  const requester = requesterOf(engine, request)
  const card = await readMember(context, target)
  if (card.problem) throw conflict('member_malformed', `${target} cannot take a brief: ${card.problem}`, {field: 'member'})

  const chain = request.chain ?? ledger.chainOf(requester)
  const refusal = ledger.check(requester, target, chain)
  if (refusal) {
    context.timeline.append('delegation.refused', {author: requester.member, text: `delegation to ${target} refused: ${refusal.message}`, code: refusal.code, from_conv: requester.conv, from_member: requester.member, member: target, chain, ...(request.task ? {task: request.task} : {})})
    context.debug.log({lvl: 'info', tag: 'delegation.refused', msg: `${requester.member} → ${target}: ${refusal.code} (${refusal.message})`, ...(requester.conv ? {conv: requester.conv} : {})})
    throw refusalError(refusal)
  }

  const conv = sessionOf(target)
  const reused = engine.conversation(conv) !== null
  const anchor = {...(request.initiative ? {initiative: request.initiative} : {}), ...(request.task ? {task: request.task} : {})}
  const row = ledger.open({requester, member: target, brief: request.brief, anchor, chain})
  let submitted: SubmitResult
  try {
    submitted = await engine.submit({conv, member: target, text: briefText(row), author: requester.member, origin: 'delegation', merge: true, request_ids: [row.request_id], anchor})
  } catch (error) {
    // No turn will ever answer it: the row closes at once, and the caller hears why (e.g. 429 at_capacity).
    ledger.close(conv, [row.request_id], 'failure', {reason: `the brief could not be started: ${isMeshError(error) ? error.code : (error as Error).message}`})
    throw error
  }
  const depth = chain.length
  context.timeline.append('delegation.opened', {
    author: requester.member,
    text: `${requester.member} → ${target}: ${firstLine(request.brief)}`,
    conv,
    request_id: row.request_id,
    member: target,
    requester,
    anchor,
    chain,
    depth,
    reused,
  })
  return {conv, request_id: row.request_id, member: target, reused, open_requests: ledger.openRequestsOf(conv).length, depth, state: submitted.state, turn_id: submitted.turn_id}
}

/** A refusal code of the ledger (409/429 delegation-*), as opposed to other failures of a brief. */
export const isRefusalCode = (code: string) => code in REFUSAL_STATUS
