/**
 * An in-memory ChatEngine for the queue's and delegation's tests: no client
 * CLI, turns end when the test says so (`finish`), with the markers the test
 * gives. It keeps the engine's contract (src/daemon/chat/types.ts): one turn
 * at a time per conv, merged inputs wait for the conv's next turn, a
 * capacity refused with 429 `at_capacity`, final hooks in registration
 * order, a conv idle only when nothing runs or waits and no coordinating
 * check claims it.
 */
import {MeshError, rateLimited} from '../../../src/lib/errors.js'
import type {ChatEngine, ConversationView, FinalHook, Marker, SubmitResult, TurnAnchor, TurnFinal, TurnInput} from '../../../src/daemon/chat/types.js'

interface Conv {
  member: string
  session_id: string
  turns: number
  running: {turn_id: string; inputs: TurnInput[]} | null
  /** Inputs for the next turn (merged) and whole turns lined up after it. */
  waiting: TurnInput[][]
  last_final_at: string | null
}

export interface FinishOptions {
  markers?: Marker[]
  status?: 'done' | 'failed'
  reason?: TurnFinal['reason']
  text?: string
  /** The profile the turn ran with (default: the first input's become, or the conv's member). */
  profile?: string
  anchor?: TurnAnchor
  exit_code?: number | null
}

export interface FakeEngine extends ChatEngine {
  /** Every input ever submitted, in order. */
  submitted: TurnInput[]
  finals: TurnFinal[]
  idled: string[]
  /** Running plus waiting turns from which submits are refused with 429 `at_capacity` (0: a full engine). */
  capacity: number
  /** When set, every submit is refused with it (a member without a card, say). */
  refuseWith: Error | null
  /** Ends the running turn of `conv`, runs the final hooks, and starts the next turn if inputs wait. */
  finish(conv: string, options?: FinishOptions): Promise<TurnFinal>
  /** The inputs of the running turn of `conv`. */
  running(conv: string): TurnInput[]
  coordinating(conv: string): boolean
}

export const report = (data: Record<string, unknown>): Marker => ({kind: 'report', data})
export const delegateMarker = (data: Record<string, unknown>): Marker => ({kind: 'delegate', data})

export function fakeEngine(): FakeEngine {
  const convs = new Map<string, Conv>()
  const hooks: FinalHook[] = []
  const idle = new Set<(conv: string) => void>()
  const checks: Array<(conv: string) => boolean> = []
  let seq = 0
  let closed = false
  const turnId = () => `t-${(++seq).toString(16).padStart(12, '0')}`
  const now = () => new Date(Date.UTC(2026, 0, 5, 12, 0, seq)).toISOString()

  const start = (conv: Conv, inputs: TurnInput[]): string => {
    conv.running = {turn_id: turnId(), inputs}
    conv.turns += 1
    return conv.running.turn_id
  }

  const engine: FakeEngine = {
    submitted: [],
    finals: [],
    idled: [],
    capacity: Number.POSITIVE_INFINITY,
    refuseWith: null,
    async submit(input) {
      if (closed) throw new MeshError('unavailable', 'engine_closed', 'the engine is closed')
      if (engine.refuseWith) throw engine.refuseWith
      const load = [...convs.values()].reduce((sum, conv) => sum + (conv.running ? 1 : 0) + conv.waiting.length, 0)
      if (load >= engine.capacity) throw rateLimited('the daemon runs as many turns as it may', 5, 'at_capacity')
      engine.submitted.push(structuredClone(input))
      let conv = convs.get(input.conv)
      if (!conv) {
        conv = {member: input.member, session_id: `00000000-0000-4000-8000-${String(convs.size).padStart(12, '0')}`, turns: 0, running: null, waiting: [], last_final_at: null}
        convs.set(input.conv, conv)
      }
      if (!conv.running) return {conv: input.conv, turn_id: start(conv, [input]), state: 'running'} satisfies SubmitResult
      // One turn at a time: a merged input joins the next turn, another one lines up a turn of its own.
      if (input.merge && conv.waiting.length > 0) conv.waiting[0].push(input)
      else conv.waiting.push([input])
      return {conv: input.conv, turn_id: 'waiting', state: 'waiting'}
    },
    conversation(id) {
      const conv = convs.get(id)
      if (!conv) return null
      return {conv: id, member: conv.member, session_id: conv.session_id, live: conv.running !== null, waiting: conv.waiting.flat().length, turns: conv.turns, turn_id: conv.running?.turn_id ?? null, last_final_at: conv.last_final_at} satisfies ConversationView
    },
    conversations: () => [...convs.keys()].map((id) => engine.conversation(id)!),
    isLive: (id) => {
      const conv = convs.get(id)
      return !!conv && (conv.running !== null || conv.waiting.length > 0)
    },
    onFinal(hook) {
      hooks.push(hook)
      return () => void hooks.splice(hooks.indexOf(hook), 1)
    },
    onIdle(listener) {
      idle.add(listener)
      return () => void idle.delete(listener)
    },
    addCoordinatingCheck: (check) => void checks.push(check),
    settle(id) {
      const conv = convs.get(id)
      if (!conv || conv.running || conv.waiting.length > 0 || engine.coordinating(id)) return
      engine.idled.push(id)
      for (const listener of idle) listener(id)
    },
    async close() {
      closed = true
    },
    running: (id) => convs.get(id)?.running?.inputs ?? [],
    coordinating: (id) => checks.some((check) => check(id)),
    async finish(id, options = {}) {
      const conv = convs.get(id)
      if (!conv?.running) throw new Error(`no turn runs in ${id}`)
      const {turn_id, inputs} = conv.running
      const status = options.status ?? 'done'
      const final: TurnFinal = {
        conv: id,
        turn_id,
        member: conv.member,
        profile: options.profile ?? inputs[0].become ?? conv.member,
        status,
        ...(status === 'failed' ? {reason: options.reason ?? 'exit'} : {}),
        exit_code: options.exit_code !== undefined ? options.exit_code : status === 'failed' ? 1 : 0,
        text: options.text ?? 'Finished.',
        raw: options.text ?? 'Finished.',
        markers: options.markers ?? [],
        ...(options.anchor ? {anchor: options.anchor} : inputs[0].anchor ? {anchor: inputs[0].anchor} : {}),
        inputs,
        started_at: now(),
        finished_at: now(),
      }
      conv.last_final_at = final.finished_at
      engine.finals.push(final)
      // The conv stays live while the hooks run: what they send it (a wake) waits for its next turn.
      for (const hook of [...hooks]) await hook(final)
      conv.running = null
      const next = conv.waiting.shift()
      if (next) start(conv, next)
      else if (!engine.coordinating(id)) {
        engine.idled.push(id)
        for (const listener of idle) listener(id)
      }
      return final
    },
  }
  return engine
}
