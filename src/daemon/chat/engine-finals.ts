/**
 * The finals the engine writes itself, for turns whose process never ran to
 * an end under this daemon (issue 19): a waiting turn the operator cancelled
 * before it started, and a turn a killed daemon left behind (`daemon_lost`,
 * written at the next start). Same event and shape as turn.ts's finals, so
 * every reader (`mesh ask`, the hooks, the thread) takes them the same way.
 */
import type {DaemonContext} from '../context.js'
import type {TurnFailure, TurnFinal, TurnInput} from './types.js'
import type {ChatFinalData} from './wire.js'

export interface EngineFinalFacts {
  turn_id: string
  conv: string
  member: string
  profile: string
  reason: TurnFailure
  detail: string
  inputs: TurnInput[]
  started_at?: string | null
}

/** Appends `chat.assistant.final` (`failed`, no text) and answers the TurnFinal the hooks take. */
export function writeEngineFinal(context: Pick<DaemonContext, 'clock' | 'timeline'>, facts: EngineFinalFacts): TurnFinal {
  const now = new Date(context.clock()).toISOString()
  const anchor = facts.inputs.find((input) => input.anchor)?.anchor
  // The fields the event and the TurnFinal share, written once.
  const ended = {
    conv: facts.conv,
    turn_id: facts.turn_id,
    member: facts.member,
    profile: facts.profile,
    status: 'failed' as const,
    reason: facts.reason,
    detail: facts.detail,
    exit_code: null,
    text: '',
    ...(anchor ? {anchor} : {}),
  }
  context.timeline.append('chat.assistant.final', {author: facts.profile, ...ended} satisfies ChatFinalData)
  return {
    ...ended,
    raw: '',
    markers: [],
    inputs: facts.inputs,
    started_at: facts.started_at ?? now,
    finished_at: now,
  }
}
