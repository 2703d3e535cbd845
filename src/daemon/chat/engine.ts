/**
 * The chat engine: which turn runs when (spec: States and transitions; docs/
 * daemon.md, Chat). One turn at a time per conversation, at most
 * `maxTurns` client processes at once, at most `maxWaiting` turns lined up
 * behind them (one more is 429 `at_capacity`). Delegation briefs and wakes
 * (`merge`) wait for the conv's next turn and are answered together; they
 * are never refused for capacity, since refusing one would strand a
 * delegation request. After each final the hooks run (task resolution,
 * delegation), then the conv is either scheduled again or idle.
 */
import {conflict, MeshError, notFound, rateLimited} from '../../lib/errors.js'
import {RUNTIME_DIR} from '../constants.js'
import type {DaemonContext} from '../context.js'
import {readMember} from '../team/cards.js'
import {CHAT_IDLE_EVENT, CHAT_RUNTIME_DIR, RECENT_TURNS_KEPT, newId} from './constants.js'
import {loadConversations, newConversation, saveConversation, type StoredConversation} from './conversations.js'
import {sweepPrivateFolders} from './private-files.js'
import {writeEngineFinal} from './engine-finals.js'
import {reapLostTurns} from './processes/reap.js'
import {sandboxFinal} from './sandbox.js'
import {startTurn, type StartedTurn} from './turn.js'
import type {ChatEngine, ConversationView, FinalHook, SubmitResult, TurnFinal, TurnInput} from './types.js'
import type {Budget} from './usage/budget.js'
import {BUDGET_HELD_EVENT, BUDGET_RELEASED_EVENT} from './usage/constants.js'
import type {BudgetHeldData, BudgetReleasedData, ChatIdleData, ChatUserData} from './wire.js'

/** What `GET /chat/turns/<id>` answers. A merged input's turn id is the turn that answered it. */
export interface TurnRecord {
  turn_id: string
  conv: string
  member: string
  status: 'waiting' | 'running' | 'done' | 'failed'
  profile?: string
  text?: string
  reason?: string
  detail?: string
  started_at?: string
  finished_at?: string
}

interface Pending {
  ticket: string
  input: TurnInput
}

interface ConvState {
  stored: StoredConversation
  pending: Pending[]
  /** `finishing`: the final is out and the hooks run; a new input waits for the next turn instead of being refused. */
  running: {turn_id: string; turn: StartedTurn; finishing: boolean} | null
  ready: boolean
}

export interface Engine extends ChatEngine {
  /** Loads the stored conversations and writes the finals of the turns a killed daemon left (reaping their clients); call once before serving. */
  start(): Promise<void>
  turn(id: string): TurnRecord | null
  /**
   * Stops a turn (issue 19, See and stop): a running one has its client's group killed (SIGTERM, SIGKILL after
   * the grace) and ends `failed`, reason `cancelled`; a waiting one is withdrawn with that final. Resolves with
   * the ended turn. 404 `turn_not_found`, 409 `turn_finished`, 409 `turn_not_cancellable` (a merged brief or wake).
   */
  cancel(id: string): Promise<TurnRecord>
  /** Conversations whose next turn waits for the daily budget (0 while it is open). */
  heldTurns(): number
  /** Turns running now and turns waiting to run (the daemon's metrics). */
  load(): {running: number; waiting: number}
}

export interface EngineOptions {
  /** The daily budget (`--max-cost-per-day`): while exhausted, new turns are refused and accepted ones wait. */
  budget?: Budget
}

const recordOf = (final: TurnFinal): TurnRecord => ({turn_id: final.turn_id, conv: final.conv, member: final.member, profile: final.profile, status: final.status, text: final.text, reason: final.reason, ...(final.detail ? {detail: final.detail} : {}), started_at: final.started_at, finished_at: final.finished_at})

export function createChatEngine(context: DaemonContext, options: EngineOptions = {}): Engine {
  const {budget} = options
  const convs = new Map<string, ConvState>()
  const ready: string[] = []
  const turns = new Map<string, TurnRecord>()
  const finalHooks: FinalHook[] = []
  const idleListeners = new Set<(conv: string) => void>()
  const coordinating: Array<(conv: string) => boolean> = []
  /** Tickets whose wait for the budget was announced (`chat.budget.held`), so each is said once. */
  const heldAnnounced = new Set<string>()
  let runningCount = 0
  let closed = false
  const limits = () => context.chatLimits

  const remember = (record: TurnRecord) => {
    turns.set(record.turn_id, record)
    // Oldest first in a Map: drop finished ones beyond the bound.
    for (const [id, old] of turns) {
      if (turns.size <= RECENT_TURNS_KEPT) break
      if (old.status === 'done' || old.status === 'failed') turns.delete(id)
    }
  }
  /** Inputs waiting that will be turns of their own (merged ones ride along): what `maxWaiting` bounds. */
  let waitingTurns = 0

  const view = (state: ConvState): ConversationView => ({
    conv: state.stored.conv,
    member: state.stored.member,
    // The session the client confirmed (issue 19), else the one its next fresh start gets.
    session_id: state.stored.client_session?.id ?? state.stored.session_id,
    live: state.running !== null && !state.running.finishing,
    waiting: state.pending.length,
    turns: state.stored.turns,
    turn_id: state.running?.turn_id ?? null,
    last_final_at: state.stored.last_final_at,
    ...(state.ready && budget?.exhausted() ? {held: 'budget' as const} : {}),
  })

  const persist = (state: ConvState) =>
    saveConversation(context, state.stored).catch((error: Error) => context.debug.log({lvl: 'error', tag: 'chat', msg: `could not save conversation ${state.stored.conv}: ${error.message}`, conv: state.stored.conv}))

  const markReady = (state: ConvState) => {
    if (state.ready || state.running || state.pending.length === 0) return
    state.ready = true
    ready.push(state.stored.conv)
  }

  function schedule() {
    if (budget?.exhausted()) return holdReady()
    while (!closed && runningCount < limits().maxTurns && ready.length > 0) {
      const state = convs.get(ready.shift()!)!
      state.ready = false
      if (state.running || state.pending.length === 0) continue
      run(state)
    }
  }

  /**
   * The budget is spent (issue 19, Cost and usage): no turn starts. Each conv
   * that would have started one says so once in its thread, with the
   * delegation requests the turn answers; the turn runs on release.
   */
  function holdReady() {
    if (closed) return
    for (const conv of ready) {
      const state = convs.get(conv)!
      const head = state.pending[0]
      if (!head || heldAnnounced.has(head.ticket)) continue
      heldAnnounced.add(head.ticket)
      const request_ids = state.pending.flatMap((p) => p.input.request_ids ?? [])
      const {resets_at} = budget!.state()
      context.timeline.append(BUDGET_HELD_EVENT, {
        author: 'daemon',
        text: `the day's budget is spent: ${state.stored.member}'s next turn waits until ${resets_at} or until the limit is raised`,
        conv,
        member: state.stored.member,
        turn_id: head.ticket,
        ...(request_ids.length > 0 ? {request_ids} : {}),
      } satisfies BudgetHeldData)
    }
  }

  budget?.onRelease(() => {
    if (heldAnnounced.size > 0) {
      context.timeline.append(BUDGET_RELEASED_EVENT, {author: 'daemon', text: `the budget is open again: ${ready.length} held conversation(s) go on`, held: ready.length} satisfies BudgetReleasedData)
    }
    heldAnnounced.clear()
    schedule()
  })

  /** The next turn's inputs: the head alone, or every merged input waiting (briefs and wakes answered together). */
  function takeInputs(state: ConvState): Pending[] {
    if (!state.pending[0].input.merge) {
      waitingTurns--
      return state.pending.splice(0, 1)
    }
    const merged = state.pending.filter((p) => p.input.merge)
    state.pending = state.pending.filter((p) => !p.input.merge)
    return merged
  }

  function run(state: ConvState) {
    const taken = takeInputs(state)
    const turn_id = taken[0].ticket
    const inputs = taken.map((p) => p.input)
    const profile = inputs.find((input) => input.become)?.become ?? state.stored.become_next ?? state.stored.member
    if (state.stored.become_next) {
      delete state.stored.become_next
      void persist(state)
    }
    runningCount++
    const turn = startTurn(context, {turn_id, conv: state.stored, inputs, profile})
    state.running = {turn_id, turn, finishing: false}
    const record: TurnRecord = {turn_id, conv: state.stored.conv, member: state.stored.member, profile, status: 'running', started_at: new Date(context.clock()).toISOString()}
    remember(record)
    for (const p of taken.slice(1)) turns.set(p.ticket, record)
    void turn.final.then((final) => afterFinal(state, taken, final))
  }

  async function afterFinal(state: ConvState, taken: Pending[], emitted: TurnFinal) {
    state.running!.finishing = true
    // Issue 19: a turn a member-token caller may have steered keeps its text, never its markers.
    const final = sandboxFinal(context, emitted)
    const record = recordOf(final)
    for (const p of taken) turns.set(p.ticket, record)
    if (final.status === 'done') state.stored.turns++
    state.stored.last_final_at = final.finished_at
    await becomeNext(state, final)
    await persist(state)
    await runHooks(final)
    state.running = null
    runningCount--
    if (state.pending.length > 0) markReady(state)
    else idle(final.conv)
    schedule()
  }

  async function runHooks(final: TurnFinal) {
    for (const hook of finalHooks) {
      try {
        await hook(final)
      } catch (error) {
        context.debug.log({lvl: 'error', tag: 'chat', msg: `a final hook failed for turn ${final.turn_id}: ${(error as Error).message}`, conv: final.conv})
      }
    }
  }

  /** Nothing runs or waits in `conv`: unless it is coordinating, it is idle — announced (`chat.idle`, what `mesh ask` follows to) and handed to the listeners. */
  function idle(conv: string) {
    if (closed || coordinating.some((check) => check(conv))) return
    context.events.publish(CHAT_IDLE_EVENT, {conv, member: convs.get(conv)?.stored.member ?? ''} satisfies ChatIdleData)
    for (const listener of idleListeners) listener(conv)
  }

  /** Issue 19, Recovery: the turns a killed daemon left get their final now, after their clients are stopped. */
  async function finishLostTurns() {
    for (const lost of await reapLostTurns(context)) {
      const final = writeEngineFinal(context, {turn_id: lost.turn_id, conv: lost.conv, member: lost.member, profile: lost.profile, reason: 'daemon_lost', detail: lost.detail, inputs: [], started_at: lost.started_at})
      remember(recordOf(final))
      const state = convs.get(lost.conv)
      if (state) {
        state.stored.last_final_at = final.finished_at
        await persist(state)
      }
      await runHooks(final)
    }
  }

  async function cancelWaiting(record: TurnRecord): Promise<TurnRecord> {
    const state = convs.get(record.conv)
    const index = state ? state.pending.findIndex((p) => p.ticket === record.turn_id) : -1
    if (!state || index === -1) throw conflict('turn_finished', `Turn ${record.turn_id} is no longer waiting`)
    const {input} = state.pending[index]
    if (input.merge) throw conflict('turn_not_cancellable', `Turn ${record.turn_id} is a delegation brief or a wake waiting for the next turn of ${record.conv}; cancel its request instead (DELETE /chat/requests/<request_id>)`)
    state.pending.splice(index, 1)
    waitingTurns--
    const final = writeEngineFinal(context, {turn_id: record.turn_id, conv: record.conv, member: record.member, profile: input.become ?? record.member, reason: 'cancelled', detail: 'cancelled by the operator before it started', inputs: [input]})
    const ended = recordOf(final)
    remember(ended)
    await runHooks(final)
    if (!state.running && state.pending.length === 0) idle(record.conv)
    return ended
  }

  /** spec v36: a `mesh-become` marker gives the next turn of this conv a teammate's profile, announced in the thread. */
  async function becomeNext(state: ConvState, final: TurnFinal) {
    const marker = final.markers.find((m) => m.kind === 'become')
    if (!marker || marker.kind === 'invalid' || final.status !== 'done') return
    const target = String(marker.data.member ?? '')
    const card = await readMember(context, target).catch(() => null)
    if (!card || card.problem) {
      context.debug.log({lvl: 'warn', tag: 'chat', msg: `${final.profile} asked to become ${JSON.stringify(target)}, which is not a usable team member`, conv: final.conv})
      return
    }
    state.stored.become_next = target
    context.timeline.append('chat.become', {author: final.profile, text: `${final.profile} becomes ${target} for the next turn`, conv: final.conv, member: state.stored.member, profile: target})
  }

  async function stateOf(input: TurnInput): Promise<ConvState> {
    const known = convs.get(input.conv)
    if (known) {
      if (known.stored.member !== input.member) throw conflict('conv_member_mismatch', `Conversation ${input.conv} belongs to ${known.stored.member}, not ${input.member}`)
      return known
    }
    const state: ConvState = {stored: newConversation(input.conv, input.member, context.clock()), pending: [], running: null, ready: false}
    convs.set(input.conv, state)
    await persist(state)
    return state
  }

  async function assertUsable(id: string) {
    const card = await readMember(context, id)
    if (card.problem) throw conflict('member_malformed', `The card of ${id} cannot be used: ${card.problem}`)
  }

  return {
    async start() {
      for (const stored of await loadConversations(context)) convs.set(stored.conv, {stored, pending: [], running: null, ready: false})
      // Before the sweep: a client left running by a killed daemon may still read its private files.
      await finishLostTurns()
      // The private folders of turns a killed daemon never finished: their prompts go now.
      const swept = await sweepPrivateFolders(context.meshPath(RUNTIME_DIR, CHAT_RUNTIME_DIR))
      if (swept > 0) context.debug.log({lvl: 'info', tag: 'boot', msg: `removed ${swept} private turn folder(s) left by a daemon that did not stop cleanly`})
    },

    async submit(input): Promise<SubmitResult> {
      if (closed) throw new MeshError('unavailable', 'daemon_stopping', 'The daemon is stopping; no new turns')
      await assertUsable(input.member)
      if (input.become) await assertUsable(input.become)
      // A spent budget refuses new turns; briefs and wakes (merge) are work already under way: they wait, never lost.
      if (!input.merge && budget?.exhausted()) throw budget.refusal()
      const busy = convs.get(input.conv)?.running != null || runningCount >= limits().maxTurns
      if (!input.merge && busy && waitingTurns >= limits().maxWaiting) {
        throw rateLimited(`The daemon is at capacity (${limits().maxTurns} turns running, ${limits().maxWaiting} waiting); try again shortly`, 5, 'at_capacity')
      }
      const state = await stateOf(input)
      const ticket = newId('t-')
      state.pending.push({ticket, input})
      if (!input.merge) waitingTurns++
      remember({turn_id: ticket, conv: input.conv, member: input.member, status: 'waiting'})
      context.timeline.append('chat.user', {author: input.author, text: input.text, conv: input.conv, turn_id: ticket, member: input.member, origin: input.origin, ...(input.request_ids ? {request_ids: input.request_ids} : {})} satisfies ChatUserData)
      markReady(state)
      schedule()
      return {conv: input.conv, turn_id: ticket, state: turns.get(ticket)?.status === 'running' ? 'running' : 'waiting'}
    },

    conversation: (conv) => {
      const state = convs.get(conv)
      return state ? view(state) : null
    },
    conversations: () => [...convs.values()].map(view),
    isLive: (conv) => {
      const state = convs.get(conv)
      return !!state && ((state.running !== null && !state.running.finishing) || state.pending.length > 0)
    },
    turn: (id) => turns.get(id) ?? null,
    heldTurns: () => (budget?.exhausted() ? ready.length : 0),
    load: () => ({running: runningCount, waiting: waitingTurns}),
    async cancel(id) {
      const record = turns.get(id)
      if (!record) throw notFound('turn_not_found', `No turn ${id.slice(0, 40)} (finished turns are kept for a while; the timeline keeps all)`)
      if (record.status === 'waiting') return cancelWaiting(record)
      const running = [...convs.values()].find((state) => state.running?.turn_id === record.turn_id)?.running
      if (record.status !== 'running' || !running || running.finishing) throw conflict('turn_finished', `Turn ${id.slice(0, 40)} has ended; nothing to cancel`)
      running.turn.kill('cancelled')
      const final = await running.turn.final
      return turns.get(id) ?? recordOf(final)
    },
    onFinal(hook) {
      finalHooks.push(hook)
      return () => void finalHooks.splice(finalHooks.indexOf(hook), 1)
    },
    onIdle(listener) {
      idleListeners.add(listener)
      return () => void idleListeners.delete(listener)
    },
    settle(conv) {
      const state = convs.get(conv)
      if (!state || state.running !== null || state.pending.length > 0) return
      idle(conv)
    },
    addCoordinatingCheck(check) {
      coordinating.push(check)
    },
    async close() {
      closed = true
      // Inputs still waiting are not kept. A lone one (a message, a queued item, an ask) gets its final, so whoever
      // waits on it hears the daemon stopped (issue 19); a brief's request stays open in the ledger for the next start.
      for (const state of convs.values()) {
        for (const {ticket, input} of state.pending.splice(0)) {
          if (input.merge) continue
          remember(recordOf(writeEngineFinal(context, {turn_id: ticket, conv: input.conv, member: input.member, profile: input.become ?? input.member, reason: 'shutdown', detail: 'the daemon stopped before it started', inputs: [input]})))
        }
      }
      const finals = [...convs.values()].flatMap((state) => (state.running ? [state.running.turn.final] : []))
      for (const state of convs.values()) state.running?.turn.kill('shutdown')
      await Promise.all(finals)
    },
  }
}

export const unknownConv = (conv: string) => notFound('conv_not_found', `No conversation ${conv}`)
