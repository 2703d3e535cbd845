/**
 * An in-memory ChatEngine for the queue's tests: turns do not run a client,
 * they stay `running` until the test ends them with `finish(conv)`. Otherwise
 * it keeps the engine's contract (src/daemon/chat/types.ts): one turn at a
 * time per conv (later submits wait), a capacity refused with 429
 * `at_capacity`, final hooks in registration order, and `onIdle` only when
 * nothing runs or waits in the conv and no coordinating check claims it.
 */
import {randomBytes, randomUUID} from 'node:crypto'
import {MeshError, rateLimited} from '../../../../src/lib/errors.js'
import type {ChatEngine, ConversationView, FinalHook, SubmitResult, TurnFinal, TurnInput} from '../../../../src/daemon/chat/types.js'

interface Conv {
  member: string
  session_id: string
  running: {turn_id: string; input: TurnInput; started_at: string} | null
  waiting: TurnInput[]
  turns: number
  last_final_at: string | null
}

export class FakeEngine implements ChatEngine {
  /** Every input the engine accepted, in order. */
  readonly accepted: TurnInput[] = []
  /** Running plus waiting turns past this are refused (the engine's maxTurns + maxWaiting). */
  capacity = Number.POSITIVE_INFINITY
  /** When set, every submit is refused with it (a member without a card, say). */
  refuseWith: Error | null = null
  private readonly convs = new Map<string, Conv>()
  private readonly hooks: FinalHook[] = []
  private readonly idleListeners: Array<(conv: string) => void> = []
  private readonly coordinating: Array<(conv: string) => boolean> = []
  private closed = false

  async submit(input: TurnInput): Promise<SubmitResult> {
    if (this.closed) throw new MeshError('unavailable', 'engine_closed', 'The chat engine is stopping')
    if (this.refuseWith) throw this.refuseWith
    if (this.load() >= this.capacity) throw rateLimited('Too many turns running and waiting', 5, 'at_capacity')
    this.accepted.push(input)
    const conv = this.convs.get(input.conv) ?? {member: input.member, session_id: randomUUID(), running: null, waiting: [], turns: 0, last_final_at: null}
    this.convs.set(input.conv, conv)
    if (conv.running) {
      conv.waiting.push(input)
      return {conv: input.conv, turn_id: `t-${randomBytes(6).toString('hex')}`, state: 'waiting'}
    }
    return {conv: input.conv, turn_id: this.start(conv, input), state: 'running'}
  }

  conversation(conv: string): ConversationView | null {
    const state = this.convs.get(conv)
    if (!state) return null
    return {conv, member: state.member, session_id: state.session_id, live: state.running !== null, waiting: state.waiting.length, turns: state.turns, turn_id: state.running?.turn_id ?? null, last_final_at: state.last_final_at}
  }

  conversations(): ConversationView[] {
    return [...this.convs.keys()].map((conv) => this.conversation(conv)!)
  }

  isLive(conv: string): boolean {
    const state = this.convs.get(conv)
    return !!state && (state.running !== null || state.waiting.length > 0)
  }

  onFinal(hook: FinalHook): () => void {
    this.hooks.push(hook)
    return () => void this.hooks.splice(this.hooks.indexOf(hook), 1)
  }

  onIdle(listener: (conv: string) => void): () => void {
    this.idleListeners.push(listener)
    return () => void this.idleListeners.splice(this.idleListeners.indexOf(listener), 1)
  }

  addCoordinatingCheck(check: (conv: string) => boolean): void {
    this.coordinating.push(check)
  }

  async close(): Promise<void> {
    this.closed = true
  }

  /** Ends the running turn of `conv`: final hooks, then the next waiting input, or idle. */
  async finish(conv: string, status: TurnFinal['status'] = 'done'): Promise<TurnFinal> {
    const state = this.convs.get(conv)
    if (!state?.running) throw new Error(`no turn runs in ${conv}`)
    const {turn_id, input, started_at} = state.running
    const finished_at = new Date().toISOString()
    const final: TurnFinal = {conv, turn_id, member: input.member, profile: input.become ?? input.member, status, exit_code: status === 'done' ? 0 : 1, text: `answer to ${input.text}`, raw: '', markers: [], inputs: [input], started_at, finished_at}
    state.running = null
    state.turns++
    state.last_final_at = finished_at
    for (const hook of [...this.hooks]) await hook(final)
    const next = state.waiting.shift()
    if (next) this.start(state, next)
    else if (!this.isLive(conv) && !this.coordinating.some((check) => check(conv))) for (const listener of [...this.idleListeners]) listener(conv)
    return final
  }

  private start(conv: Conv, input: TurnInput): string {
    const turn_id = `t-${randomBytes(6).toString('hex')}`
    conv.running = {turn_id, input, started_at: new Date().toISOString()}
    return turn_id
  }

  private load(): number {
    let load = 0
    for (const conv of this.convs.values()) load += (conv.running ? 1 : 0) + conv.waiting.length
    return load
  }
}
