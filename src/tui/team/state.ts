/**
 * The state of `mesh team watch` (docs/cli.md, mesh team watch): a snapshot
 * of the team at work, then each event of `/events` folded in. Pure — no
 * I/O, no clock — so it is tested without Ink or a daemon. Applying an event
 * the snapshot already holds changes nothing that matters: the watch reads
 * its snapshot after opening the stream, so a few events come twice.
 */
import type {
  ChatDeltaData,
  ChatFinalData,
  ChatTurnStartedData,
  ChatUserData,
  DelegationClosedData,
  DelegationOpenedData,
  MemberSummary,
  TeamSnapshot,
} from '../../client/daemon/team-watch.js'
import type {DaemonEventMessage} from '../../protocol/events.js'
import {QUEUE_EVENTS, type QueueEventData, type QueueFile, type QueueItem} from '../../protocol/queue.js'
import {TASK_COMPLETED_EVENT} from '../../protocol/tasks.js'
import {TEAM_EVENTS, type TeamEventData} from '../../protocol/team.js'

export interface MemberRow {
  id: string
  title: string | null
  problem: string | null
}

export interface LiveTurn {
  turn_id: string
  /** The profile running it (a `become` target, or the conv's member). */
  profile: string
  origin: string | null
  /** The newest output line worth showing (blank lines and marker blocks skipped). */
  last_line: string
  started_at: string | null
  /** The fence of a marker block the output is inside (its lines are not shown), or null. */
  in_marker: string | null
}

export interface ConvRow {
  conv: string
  member: string
  turn: LiveTurn | null
  last: {turn_id: string; status: 'done' | 'failed'; reason: string | null; at: string} | null
}

export interface RequestRow {
  request_id: string
  /** The member session that owes the report (`m-<member>`). */
  conv: string
  member: string
  requester: {conv: string | null; member: string}
  /** `<requester> → <member>: <first line of the brief>`. */
  summary: string
  opened_at: string
}

export interface QueueRow {
  conv: string
  version: number
  /** Items still in the file, in queue order (queued, sending, failed). */
  items: QueueItem[]
  /** Issue 19: why the queue holds after a failed turn, until the operator resumes it. */
  paused?: string
}

export interface Notice {
  ts: string
  text: string
}

export interface TeamState {
  members: MemberRow[]
  convs: Record<string, ConvRow>
  requests: RequestRow[]
  queues: Record<string, QueueRow>
  /** The newest notable endings (failed turns, closed and refused requests, completed tasks, commits), newest last. */
  notices: Notice[]
  connected: boolean
  /** Why the watch is not connected. */
  reason: string | null
  /** A snapshot has been applied. */
  ready: boolean
}

export type TeamAction =
  | {kind: 'snapshot'; snapshot: TeamSnapshot}
  | {kind: 'event'; event: DaemonEventMessage}
  | {kind: 'members'; members: MemberSummary[]}
  /** A queue read again after its file changed on disk: it replaces what the view had (a restore may lower its version). */
  | {kind: 'queue'; queue: QueueFile}
  | {kind: 'connection'; connected: boolean; reason?: string}

export const NOTICES_KEPT = 8
const LINE_CHARS = 200

export const initialTeamState = (): TeamState => ({members: [], convs: {}, requests: [], queues: {}, notices: [], connected: false, reason: null, ready: false})

const memberRow = (member: MemberSummary): MemberRow => ({id: member.id, title: member.title, problem: member.problem})
const byId = (a: {id: string}, b: {id: string}) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
const cut = (text: string) => (text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS - 1)}…` : text)
const firstLine = (text: string) => cut((text.trim().split('\n')[0] ?? '').trim())

function withNotice(state: TeamState, ts: string, text: string): TeamState {
  return {...state, notices: [...state.notices, {ts, text: firstLine(text)}].slice(-NOTICES_KEPT)}
}

function withConv(state: TeamState, conv: string, member: string, change: (row: ConvRow) => ConvRow = (row) => row): TeamState {
  const known = state.convs[conv]
  // A conv first seen through its queue has no member yet (queue events do not carry it).
  const row = known ? (known.member === '' && member !== '' ? {...known, member} : known) : {conv, member, turn: null, last: null}
  return {...state, convs: {...state.convs, [conv]: change(row)}}
}

function fromSnapshot(state: TeamState, snapshot: TeamSnapshot): TeamState {
  const convs: Record<string, ConvRow> = {}
  const turns = new Map(snapshot.turns.map((turn) => [turn.turn_id, turn]))
  for (const view of snapshot.convs) {
    const record = view.live && view.turn_id ? turns.get(view.turn_id) : undefined
    convs[view.conv] = {
      conv: view.conv,
      member: view.member,
      turn: view.live && view.turn_id ? {turn_id: view.turn_id, profile: record?.profile ?? view.member, origin: null, last_line: '', started_at: record?.started_at ?? null, in_marker: null} : null,
      last: null,
    }
  }
  const requests = snapshot.requests.map((row) => ({
    request_id: row.request_id,
    conv: row.conv,
    member: row.member,
    requester: {...row.requester},
    summary: `${row.requester.member} → ${row.member}: ${firstLine(row.brief)}`,
    opened_at: row.opened_at,
  }))
  for (const row of requests) if (!convs[row.conv]) convs[row.conv] = {conv: row.conv, member: row.member, turn: null, last: null}
  const queues: Record<string, QueueRow> = {}
  for (const file of snapshot.queues) {
    queues[file.conv] = queueRow(file)
    if (file.items.length > 0) convs[file.conv] ??= {conv: file.conv, member: file.member ?? '', turn: null, last: null}
  }
  return {...state, members: snapshot.members.map(memberRow).sort(byId), convs, requests, queues, ready: true}
}

const queueRow = (file: QueueFile): QueueRow => ({conv: file.conv, version: file.version, items: file.items, ...(file.paused ? {paused: file.paused.reason} : {})})

/** A queue as read again: it replaces the one the view had. */
function withQueue(state: TeamState, file: QueueFile): TeamState {
  const next = {...state, queues: {...state.queues, [file.conv]: queueRow(file)}}
  return file.items.length > 0 ? withConv(next, file.conv, file.member ?? '') : next
}

const OPENING = /^(`{3,})[ \t]*mesh-[a-z]+[ \t]*$/

/** The turn after one more output line: marker blocks and blank lines leave `last_line` as it was. */
function withLine(turn: LiveTurn, line: string): LiveTurn {
  if (turn.in_marker !== null) return new RegExp(`^${turn.in_marker}[ \\t]*$`).test(line) ? {...turn, in_marker: null} : turn
  const opening = OPENING.exec(line)
  if (opening) return {...turn, in_marker: opening[1]}
  return line.trim() === '' ? turn : {...turn, last_line: cut(line.trim())}
}

function applyQueue(state: TeamState, type: string, data: QueueEventData): TeamState {
  const known = state.queues[data.conv] ?? {conv: data.conv, version: 0, items: []}
  // Versions only grow: an event the snapshot already holds is skipped.
  if (data.version <= known.version) return state
  let items = known.items.filter((item) => item.id !== data.item.id)
  if (type === QUEUE_EVENTS.added || type === QUEUE_EVENTS.updated) {
    const at = Math.min(Math.max(0, data.item.position), items.length)
    items = [...items.slice(0, at), data.item, ...items.slice(at)]
  }
  // An emptied queue keeps its version, so an older event read again cannot bring an item back.
  return withConv({...state, queues: {...state.queues, [data.conv]: {...known, conv: data.conv, version: data.version, items}}}, data.conv, '')
}

/** `queue.paused` / `queue.resumed` (issue 19): the queue holds, or goes on. */
function applyPause(state: TeamState, data: {conv: string; version: number; paused?: {reason: string}}): TeamState {
  const known = state.queues[data.conv] ?? {conv: data.conv, version: 0, items: []}
  if (data.version <= known.version) return state
  const {paused: _was, ...rest} = known
  return {...state, queues: {...state.queues, [data.conv]: {...rest, version: data.version, ...(data.paused ? {paused: data.paused.reason} : {})}}}
}

function applyEvent(state: TeamState, event: DaemonEventMessage): TeamState {
  const {type, ts} = event
  const data = event.data as Record<string, unknown>
  switch (type) {
    case 'chat.user': {
      const user = data as unknown as ChatUserData
      return withConv(state, user.conv, user.member)
    }
    case 'chat.turn.started': {
      const started = data as unknown as ChatTurnStartedData
      return withConv(state, started.conv, started.member, (row) =>
        row.turn?.turn_id === started.turn_id ? {...row, turn: {...row.turn, profile: started.profile, origin: started.origin}} : {...row, turn: {turn_id: started.turn_id, profile: started.profile, origin: started.origin, last_line: '', started_at: ts, in_marker: null}},
      )
    }
    case 'chat.assistant.delta': {
      const delta = data as unknown as ChatDeltaData
      return withConv(state, delta.conv, delta.member, (row) => {
        if (row.last?.turn_id === delta.turn_id) return row
        const turn = row.turn?.turn_id === delta.turn_id ? row.turn : {turn_id: delta.turn_id, profile: delta.author || delta.member, origin: null, last_line: '', started_at: null, in_marker: null}
        return {...row, turn: withLine(turn, delta.text)}
      })
    }
    case 'chat.assistant.final': {
      const final = data as unknown as ChatFinalData
      const next = withConv(state, final.conv, final.member, (row) => ({
        ...row,
        turn: row.turn && row.turn.turn_id !== final.turn_id ? row.turn : null,
        last: {turn_id: final.turn_id, status: final.status, reason: final.reason ?? null, at: ts},
      }))
      return final.status === 'failed' ? withNotice(next, ts, `${final.profile}'s turn in ${final.conv} failed (${final.reason ?? 'unknown'})`) : next
    }
    case 'delegation.opened': {
      const opened = data as unknown as DelegationOpenedData
      const row: RequestRow = {request_id: opened.request_id, conv: opened.conv, member: opened.member, requester: {...opened.requester}, summary: firstLine(opened.text), opened_at: ts}
      const requests = state.requests.some((known) => known.request_id === row.request_id) ? state.requests : [...state.requests, row]
      return withConv({...state, requests}, opened.conv, opened.member)
    }
    case 'delegation.closed': {
      const closed = data as unknown as DelegationClosedData
      return withNotice({...state, requests: state.requests.filter((row) => row.request_id !== closed.request_id)}, ts, closed.text || `${closed.member} answered ${closed.requester.member}: ${closed.outcome}`)
    }
    case 'delegation.refused':
      return withNotice(state, ts, String(data.text ?? 'a delegation was refused'))
    case QUEUE_EVENTS.added:
    case QUEUE_EVENTS.updated:
    case QUEUE_EVENTS.removed:
    case QUEUE_EVENTS.sent:
      return applyQueue(state, type, data as unknown as QueueEventData)
    case QUEUE_EVENTS.paused:
      return withNotice(applyPause(state, data as {conv: string; version: number; paused: {reason: string}}), ts, `the queue of ${String(data.conv)} is paused`)
    case QUEUE_EVENTS.resumed:
      return applyPause(state, data as {conv: string; version: number})
    case TEAM_EVENTS.created: {
      const {id} = data as unknown as TeamEventData
      return state.members.some((member) => member.id === id) ? state : {...state, members: [...state.members, {id, title: null, problem: null}].sort(byId)}
    }
    case TEAM_EVENTS.deleted: {
      const {id} = data as unknown as TeamEventData
      return {...state, members: state.members.filter((member) => member.id !== id)}
    }
    case TASK_COMPLETED_EVENT:
      return withNotice(state, ts, `${String(data.member ?? 'a member')} completed #${String(data.task ?? '?')}`)
    case 'commit.created':
      return withNotice(state, ts, `commit ${String(data.sha ?? '').slice(0, 8)} by ${String(data.member ?? '?')}: ${String(data.subject ?? '')}`)
    default:
      return state
  }
}

export function teamReducer(state: TeamState, action: TeamAction): TeamState {
  switch (action.kind) {
    case 'snapshot':
      return fromSnapshot(state, action.snapshot)
    case 'event':
      return applyEvent(state, action.event)
    case 'members':
      return {...state, members: action.members.map(memberRow).sort(byId)}
    case 'queue':
      return withQueue(state, action.queue)
    case 'connection':
      return {...state, connected: action.connected, reason: action.connected ? null : (action.reason ?? null)}
  }
}

/** One conv at work in the tree: its running turn, what it owes and waits on, its queue, and the sessions working for it. */
export interface WorkNode {
  conv: string
  member: string
  turn: LiveTurn | null
  /** Open requests this conv (a member session) is working on. */
  owes: RequestRow[]
  /** Open requests this conv made and waits on. */
  waiting_on: number
  queued: number
  failed: number
  /** Why its queue is paused (issue 19), or null. */
  paused: string | null
  /** The first queued item's text (first line). */
  next: string | null
  children: WorkNode[]
}

/**
 * The convs at work as a tree: a member session working on a request sits
 * under the conv that asked (the requester of its oldest open request);
 * the rest (operator chats, asks, sessions the operator briefed) are roots.
 */
export function workTree(state: TeamState): WorkNode[] {
  const owes = (conv: string) => state.requests.filter((row) => row.conv === conv)
  const waitingOn = (conv: string) => state.requests.filter((row) => row.requester.conv === conv).length
  const atWork = Object.values(state.convs).filter((row) => row.turn !== null || owes(row.conv).length > 0 || waitingOn(row.conv) > 0 || (state.queues[row.conv]?.items.length ?? 0) > 0)
  const ids = new Set(atWork.map((row) => row.conv))
  const nodes = new Map<string, WorkNode>()
  for (const row of atWork) {
    const items = state.queues[row.conv]?.items ?? []
    const head = items.find((item) => item.status === 'queued')
    nodes.set(row.conv, {
      conv: row.conv,
      member: row.member,
      turn: row.turn,
      owes: owes(row.conv),
      waiting_on: waitingOn(row.conv),
      queued: items.filter((item) => item.status === 'queued').length,
      failed: items.filter((item) => item.status === 'failed').length,
      paused: state.queues[row.conv]?.paused ?? null,
      next: head ? firstLine(head.text) : null,
      children: [],
    })
  }
  const parentOf = (node: WorkNode) => {
    const requester = node.owes[0]?.requester.conv
    return requester && requester !== node.conv && ids.has(requester) ? requester : null
  }
  const roots: WorkNode[] = []
  for (const node of nodes.values()) {
    // The ledger refuses cycles; a hand-edited one still must not hide a node: walk up, and a loop makes a root.
    let parent = parentOf(node)
    const seen = new Set([node.conv])
    for (let up = parent; up !== null; up = parentOf(nodes.get(up)!)) {
      if (seen.has(up)) {
        parent = null
        break
      }
      seen.add(up)
    }
    if (parent) nodes.get(parent)!.children.push(node)
    else roots.push(node)
  }
  return roots
}

export type MemberStatus = 'working' | 'waiting' | 'idle'

/** Working: a turn of it runs (its own conv or a `become` profile); waiting: a conv of it waits on requests or queued items. */
export function memberStatus(state: TeamState, id: string): MemberStatus {
  const convs = Object.values(state.convs)
  if (convs.some((row) => row.turn !== null && (row.turn.profile === id || row.member === id))) return 'working'
  const waiting = convs.some((row) => row.member === id && (state.requests.some((request) => request.requester.conv === row.conv || request.conv === row.conv) || (state.queues[row.conv]?.items.length ?? 0) > 0))
  return waiting ? 'waiting' : 'idle'
}
