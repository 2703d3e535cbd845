/**
 * The piece of work one `mesh ask` started, told apart from the rest of the
 * team's events (issue 19, See and stop): the asked turn and every later
 * turn of its conversation, the delegations that conversation opened, the
 * turns of the member sessions answering them (nested one level per hand-off),
 * their own delegations, their tool steps, refusals and reports, up to the
 * `chat.idle` of the asked conversation. Pure: it reads events and answers
 * what to show; send-and-wait.ts feeds it, the command renders it.
 *
 * Which session turn answers which brief is read from the events alone: a
 * brief is a `chat.user` with `request_ids` (it may arrive before the
 * `delegation.opened` that says the request is ours), and it waits, merged,
 * for its session's next turn — the next `chat.turn.started` there that is
 * not a lone operator input (docs/daemon.md, Delegation).
 */
import type {ChatDeltaData, ChatFinalData, ChatToolData, ChatTurnStartedData, ChatUserData, DelegationClosedData, DelegationOpenedData} from '../../daemon/chat/wire.js'
import type {DaemonEventMessage} from '../../protocol/events.js'

export interface WorkTurn {
  turn_id: string
  conv: string
  member: string
  profile: string
  /** 0 for the asked conversation's turns, n for a turn answering a brief n hand-offs away. */
  depth: number
  /** The request it answers, for nested turns. */
  request_id?: string
  status?: 'done' | 'failed'
  reason?: string
  text?: string
  cost_usd?: number | null
}

export interface WorkRequest {
  request_id: string
  member: string
  /** The member session answering it. */
  conv: string
  /** The depth of the turns answering it. */
  depth: number
  outcome?: string
}

export type WorkUpdate =
  | {kind: 'turn'; turn: WorkTurn}
  | {kind: 'line'; turn: WorkTurn; text: string; seq: number}
  | {kind: 'tool'; turn: WorkTurn; tool: ChatToolData}
  | {kind: 'final'; turn: WorkTurn; final: ChatFinalData}
  | {kind: 'delegated'; request: WorkRequest; from: string; brief: string}
  | {kind: 'answered'; request: WorkRequest; closed: DelegationClosedData}
  | {kind: 'refused'; depth: number; from: string; member: string; code: string; text: string}
  | {kind: 'idle'}

export interface WorkSummary {
  turns: WorkTurn[]
  requests: WorkRequest[]
  /** The sum of the costs the finals reported; null when none did. */
  cost_usd: number | null
}

export interface WorkTracker {
  handle(event: DaemonEventMessage): WorkUpdate[]
  /** The asked conversation went idle after its first final: the work is over. */
  readonly done: boolean
  summary(): WorkSummary
}

/** Tickets and turn starts remembered to link briefs that arrive out of order; the oldest are forgotten. */
const REMEMBERED = 5_000

function bounded<K, V>() {
  const map = new Map<K, V>()
  return {
    get: (key: K) => map.get(key),
    set(key: K, value: V) {
      map.set(key, value)
      if (map.size > REMEMBERED) map.delete(map.keys().next().value as K)
    },
    delete: (key: K) => map.delete(key),
  }
}

export function createWorkTracker(root: {conv: string; turn_id: string}): WorkTracker {
  const turns = new Map<string, WorkTurn>()
  const requests = new Map<string, WorkRequest>()
  /** Per session conv: requests of ours whose brief waits for that session's next turn. */
  const waiting = new Map<string, string[]>()
  /** A brief's `chat.user` seen before its request was known to be ours: request id → its session and ticket. */
  const briefs = bounded<string, {conv: string; ticket: string}>()
  /** Whether an input ticket is merged (a brief or a wake) — a lone input's turn answers no brief. */
  const mergedTicket = bounded<string, boolean>()
  /** Turns started that were not (yet) known to be ours, to adopt when their brief turns out to be ours. */
  const strangers = bounded<string, ChatTurnStartedData>()
  let rootStarted = false
  let rootEnded = false
  let done = false

  const openRequestIn = (conv: string | null) => [...requests.values()].find((request) => request.conv === conv && request.outcome === undefined)

  const adopt = (started: ChatTurnStartedData, depth: number, requestId?: string): WorkUpdate => {
    const turn: WorkTurn = {turn_id: started.turn_id, conv: started.conv, member: started.member, profile: started.profile, depth, ...(requestId ? {request_id: requestId} : {})}
    turns.set(turn.turn_id, turn)
    return {kind: 'turn', turn}
  }

  const onStarted = (started: ChatTurnStartedData): WorkUpdate[] => {
    if (started.conv === root.conv && (started.turn_id === root.turn_id || rootStarted)) {
      rootStarted = true
      return [adopt(started, 0)]
    }
    const pending = waiting.get(started.conv)
    // A lone operator input (a queued item, a send) runs alone: the briefs wait for the turn after it.
    if (pending?.length && mergedTicket.get(started.turn_id) !== false) {
      waiting.delete(started.conv)
      const depth = Math.min(...pending.map((id) => requests.get(id)?.depth ?? 1))
      return [adopt(started, depth, pending[0])]
    }
    strangers.set(started.turn_id, started)
    return []
  }

  /** A request of ours whose brief is `ticket` in `conv`: the turn answering it is the next one there (or one that already started). */
  const awaitBrief = (requestId: string, conv: string, ticket: string): WorkUpdate[] => {
    const started = strangers.get(ticket)
    if (started) {
      strangers.delete(ticket)
      return [adopt(started, requests.get(requestId)?.depth ?? 1, requestId)]
    }
    waiting.set(conv, [...(waiting.get(conv) ?? []), requestId])
    return []
  }

  const handlers: Record<string, (data: any) => WorkUpdate[]> = {
    'chat.user'(user: ChatUserData) {
      mergedTicket.set(user.turn_id, user.origin === 'delegation' || user.origin === 'wake')
      const updates: WorkUpdate[] = []
      for (const id of user.request_ids ?? []) {
        if (requests.has(id)) updates.push(...awaitBrief(id, user.conv, user.turn_id))
        else briefs.set(id, {conv: user.conv, ticket: user.turn_id})
      }
      return updates
    },
    'chat.turn.started': onStarted,
    'chat.assistant.delta'(delta: ChatDeltaData) {
      const turn = turns.get(delta.turn_id)
      return turn ? [{kind: 'line', turn, text: delta.text, seq: delta.seq}] : []
    },
    'chat.tool'(tool: ChatToolData) {
      const turn = turns.get(tool.turn_id)
      return turn ? [{kind: 'tool', turn, tool}] : []
    },
    'chat.assistant.final'(final: ChatFinalData) {
      const turn = turns.get(final.turn_id)
      if (!turn) return []
      Object.assign(turn, {status: final.status, text: final.text, ...(final.reason ? {reason: final.reason} : {}), cost_usd: final.usage?.cost_usd ?? null})
      if (turn.turn_id === root.turn_id) rootEnded = true
      return [{kind: 'final', turn, final}]
    },
    'delegation.opened'(opened: DelegationOpenedData) {
      const from = opened.requester.conv
      const parent = from === root.conv ? 0 : openRequestIn(from)?.depth
      if (parent === undefined) return []
      const request: WorkRequest = {request_id: opened.request_id, member: opened.member, conv: opened.conv, depth: parent + 1}
      requests.set(request.request_id, request)
      const updates: WorkUpdate[] = [{kind: 'delegated', request, from: opened.requester.member, brief: opened.text}]
      const brief = briefs.get(request.request_id)
      if (brief) {
        briefs.delete(request.request_id)
        updates.push(...awaitBrief(request.request_id, brief.conv, brief.ticket))
      }
      return updates
    },
    'delegation.closed'(closed: DelegationClosedData) {
      const request = requests.get(closed.request_id)
      if (!request) return []
      request.outcome = closed.outcome
      return [{kind: 'answered', request, closed}]
    },
    'delegation.refused'(refused: {from_conv: string | null; from_member: string; member: string; code: string; text: string}) {
      const depth = refused.from_conv === root.conv ? 0 : openRequestIn(refused.from_conv)?.depth
      return depth === undefined ? [] : [{kind: 'refused', depth, from: refused.from_member, member: refused.member, code: refused.code, text: refused.text}]
    },
    'chat.idle'(idle: {conv: string}) {
      if (idle.conv !== root.conv || !rootEnded || done) return []
      done = true
      return [{kind: 'idle'}]
    },
  }

  return {
    handle: (event) => handlers[event.type]?.(event.data) ?? [],
    get done() {
      return done
    },
    summary() {
      const all = [...turns.values()]
      const costs = all.map((turn) => turn.cost_usd).filter((cost): cost is number => typeof cost === 'number')
      return {turns: all, requests: [...requests.values()], cost_usd: costs.length ? costs.reduce((sum, cost) => sum + cost, 0) : null}
    },
  }
}
