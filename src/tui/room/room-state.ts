import type {ConnectionStatus} from '../../client/cluster/connection.js'
import {errorCodeOf, messageTags, payloadText, type ClientFrame, type ServerFrame, type UnknownFrame} from '../../client/cluster/frames.js'
import type {RosterEntry} from '../../client/cluster/roster.js'
import type {AssembledStream, StreamEndReason} from '../../client/cluster/streams.js'

/** A line that is a stream (spec: Message payload — stream chunks): one line, updated in place. */
export interface LineStream {
  /** For a peer's stream: the reassembler's serial, which finds the line again. */
  serial?: number
  /** open: chunks still coming (or, for your own, still being sent); incomplete: given up before `done`. */
  state: 'open' | 'done' | 'incomplete'
  chunks: number
  reason?: StreamEndReason
  missing?: number
}

/** One line of the message pane. */
export interface RoomLine {
  id: number
  /** message: from a peer; mine: sent by you (the relay does not echo); notice/error: from the client or relay. */
  kind: 'message' | 'mine' | 'notice' | 'error'
  /** ISO-8601 time. */
  ts: string
  from?: string
  /** null for a broadcast; a handle for a direct message. */
  to?: string | null
  text: string
  /** `board:…`/`ref:…` from resolved hashtags. */
  tags: string[]
  /** For your own lines: sockets reached, from the `ack` (undefined until it arrives). */
  delivered?: number
  /** For your own lines: the relay's error code when it refused the send. */
  refused?: string
  stream?: LineStream
}

export interface RoomState {
  clusterId: string
  /** The handle asked for; `you` is what the relay confirmed in `ready`. */
  agent: string
  you?: string
  owner: boolean
  lines: RoomLine[]
  roster: RosterEntry[]
  status: ConnectionStatus
  /** Ids of own lines waiting for their `ack`, oldest first (acks come in send order). */
  awaitingAck: number[]
  nextId: number
}

export type RoomEvent =
  | {type: 'frame'; frame: ServerFrame | UnknownFrame; now: string}
  | {type: 'status'; status: ConnectionStatus}
  | {type: 'roster'; roster: RosterEntry[]}
  /** `chunks`: frames the send took (over 1 when its text went out as a stream). */
  | {type: 'sent'; frame: ClientFrame; now: string; chunks?: number}
  /** A peer's stream changed (StreamReassembler). */
  | {type: 'stream'; stream: AssembledStream}
  | {type: 'notice'; text: string; now: string; error?: boolean}

/** The pane keeps this many lines; older ones scroll away for good. */
export const MAX_ROOM_LINES = 1000

export const initialRoomState = (clusterId: string, agent: string): RoomState => ({
  clusterId,
  agent,
  owner: false,
  lines: [],
  roster: [],
  status: {state: 'idle', attempt: 0},
  awaitingAck: [],
  nextId: 1,
})

function addLine(state: RoomState, line: Omit<RoomLine, 'id' | 'tags'> & {tags?: string[]}): RoomState {
  const lines = [...state.lines, {tags: [], ...line, id: state.nextId}]
  return {...state, lines: lines.length > MAX_ROOM_LINES ? lines.slice(-MAX_ROOM_LINES) : lines, nextId: state.nextId + 1}
}

function updateOwn(state: RoomState, patch: Partial<RoomLine>): RoomState {
  const [id, ...rest] = state.awaitingAck
  if (id === undefined) return state
  // A streamed line waits for one reply per chunk: the last one settles it, a refusal of any chunk sticks.
  const last = rest[0] !== id
  const settle = (line: RoomLine): RoomLine => {
    if (!last) return patch.refused && !line.refused ? {...line, refused: patch.refused} : line
    const settled = {...line, ...patch, refused: line.refused ?? patch.refused}
    return line.stream ? {...settled, stream: {...line.stream, state: 'done'}} : settled
  }
  return {...state, awaitingAck: rest, lines: state.lines.map((line) => (line.id === id ? settle(line) : line))}
}

/** Shows a peer's stream: its line is updated in place, or added when it is new (or scrolled away). */
function applyStream(state: RoomState, stream: AssembledStream): RoomState {
  const line = {
    kind: 'message' as const,
    ts: stream.ts,
    from: stream.from,
    to: stream.to,
    text: stream.text,
    tags: messageTags({board: stream.board, ref: stream.ref}),
    stream: {serial: stream.serial, state: stream.state, chunks: stream.chunks, reason: stream.reason, missing: stream.missing},
  }
  for (let index = state.lines.length - 1; index >= 0; index--) {
    if (state.lines[index].stream?.serial !== stream.serial) continue
    const lines = [...state.lines]
    lines[index] = {...lines[index], ...line}
    return {...state, lines}
  }
  return addLine(state, line)
}

/** Own streams still going out when the socket dropped will not be acknowledged: say they are incomplete. */
function dropPending(state: RoomState): RoomState {
  const open = (line: RoomLine) => line.kind === 'mine' && line.stream?.state === 'open'
  if (!state.lines.some(open)) return {...state, awaitingAck: []}
  const lines = state.lines.map((line) => (open(line) ? {...line, stream: {...line.stream!, state: 'incomplete' as const, reason: 'disconnected' as const}} : line))
  return {...state, awaitingAck: [], lines}
}

/** The room view's state machine: frames, status and local sends in, lines and roster out. */
export function roomReducer(state: RoomState, event: RoomEvent): RoomState {
  switch (event.type) {
    case 'status':
      // Sends still waiting when the socket dropped will never be acknowledged.
      return event.status.state === 'connected' || event.status.state === 'connecting' ? {...state, status: event.status} : dropPending({...state, status: event.status})
    case 'roster':
      return {...state, roster: event.roster}
    case 'notice':
      return addLine(state, {kind: event.error ? 'error' : 'notice', ts: event.now, text: event.text})
    case 'sent': {
      const chunks = event.chunks ?? 1
      const stream: LineStream | undefined = chunks > 1 ? {state: 'open', chunks} : undefined
      const next = addLine(state, {kind: 'mine', ts: event.now, from: state.you ?? state.agent, to: event.frame.to ?? null, text: payloadText(event.frame.payload), stream})
      return {...next, awaitingAck: [...next.awaitingAck, ...Array<number>(chunks).fill(state.nextId)]}
    }
    case 'stream':
      return applyStream(state, event.stream)
    case 'frame':
      return applyFrame(state, event.frame, event.now)
  }
}

function applyFrame(state: RoomState, frame: ServerFrame | UnknownFrame, now: string): RoomState {
  const known = frame as ServerFrame
  switch (known.type) {
    case 'ready': {
      const others = known.online.filter((handle) => handle !== known.you).length
      const text = `joined ${state.clusterId} as ${known.you}${known.owner ? ' (owner: you also see direct messages between others)' : ''} · ${others} other${others === 1 ? '' : 's'} online`
      return addLine({...state, you: known.you, owner: known.owner}, {kind: 'notice', ts: now, text})
    }
    case 'presence':
      return addLine(state, {kind: 'notice', ts: now, text: `${known.agent} ${known.status === 'online' ? 'joined' : 'left'}`})
    case 'message':
      return addLine(state, {kind: 'message', ts: known.ts, from: known.from, to: known.to, text: payloadText(known.payload), tags: messageTags(known)})
    case 'ack':
      return updateOwn(state, {delivered: known.delivered})
    case 'error': {
      const refused = updateOwn(state, {refused: errorCodeOf(known.detail)})
      return addLine(refused, {kind: 'error', ts: now, text: `relay: ${known.detail}`})
    }
    case 'closed':
      return addLine(state, {kind: known.reason === 'deleted' ? 'error' : 'notice', ts: now, text: known.reason === 'deleted' ? `cluster ${state.clusterId} was deleted` : `relay closed the connection: ${known.reason}`})
    default:
      return state
  }
}
