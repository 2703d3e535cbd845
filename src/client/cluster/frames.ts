/**
 * The cluster relay's wire frames as the client sees them, and their parsing.
 * spec: cluster "Server frames"; DECISIONS "Cluster relay" — every
 * server frame carries `type`, the sender gets an `ack` (no echo).
 */

// The relay's own frame types (type-only: nothing of the server loads).
export type {AckFrame, ClosedFrame, ErrorFrame, MessageFrame, PresenceFrame, ReadyFrame, ServerFrame} from '../../cluster/wire.js'
import type {AckFrame, MessageFrame, PresenceFrame, ReadyFrame, ServerFrame} from '../../cluster/wire.js'

/** A well-formed JSON frame of a type this client does not know (newer relay). */
export interface UnknownFrame {
  type: string
  [key: string]: unknown
}

/** Frames the client sends. spec: "Client frames" — `{payload}` broadcast, `{to, payload}` direct. */
export type ClientFrame = {payload: unknown; to?: string}

/** Outcome of parsing one WebSocket message from the relay. */
export type ParsedFrame =
  | {ok: true; frame: ServerFrame; known: true}
  | {ok: true; frame: UnknownFrame; known: false}
  | {ok: false; error: string; raw: string}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isString = (value: unknown): value is string => typeof value === 'string'
const isStringOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string'
const optionalStringOrNull = (value: unknown) => value === undefined || isStringOrNull(value)

/** What each known type needs to be usable; other fields pass through untouched. */
const CHECKS: Record<ServerFrame['type'], (frame: Record<string, unknown>) => string | undefined> = {
  ready: (f) =>
    !isString(f.you) ? 'ready.you must be a string'
    : !Array.isArray(f.online) || !f.online.every(isString) ? 'ready.online must be an array of handles'
    : !optionalStringOrNull(f.you_did) ? 'ready.you_did must be a string or null'
    : undefined,
  presence: (f) =>
    !isString(f.agent) ? 'presence.agent must be a string'
    : f.status !== 'online' && f.status !== 'offline' ? 'presence.status must be online or offline'
    : undefined,
  message: (f) =>
    !isString(f.from) ? 'message.from must be a string'
    : !optionalStringOrNull(f.to) ? 'message.to must be a handle or null'
    : !('payload' in f) ? 'message.payload is missing'
    : undefined,
  ack: (f) => (typeof f.delivered !== 'number' || !Number.isInteger(f.delivered) ? 'ack.delivered must be an integer' : undefined),
  closed: (f) => (!isString(f.reason) ? 'closed.reason must be a string' : undefined),
  error: (f) => (!isString(f.detail) ? 'error.detail must be a string' : undefined),
}

/** Fills the optional fields the spec allows a relay to omit, so consumers see one shape. */
function normalize(frame: Record<string, unknown>): ServerFrame {
  switch (frame.type) {
    case 'ready':
      return {...frame, you_did: frame.you_did ?? null, public: frame.public === true, owner: frame.owner === true} as unknown as ReadyFrame
    case 'presence':
      return {...frame, did: frame.did ?? null} as unknown as PresenceFrame
    case 'message':
      return {...frame, to: frame.to ?? null, ts: isString(frame.ts) ? frame.ts : new Date().toISOString()} as unknown as MessageFrame
    case 'ack':
      return {...frame, to: frame.to ?? null} as unknown as AckFrame
    default:
      return frame as unknown as ServerFrame
  }
}

/** Parses one text message from the relay into a typed frame; never throws. */
export function parseServerFrame(raw: string): ParsedFrame {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return {ok: false, error: 'not JSON', raw}
  }
  if (!isObject(value) || !isString(value.type)) return {ok: false, error: 'frame has no string "type"', raw}
  const check = CHECKS[value.type as ServerFrame['type']]
  if (!check) return {ok: true, frame: value as UnknownFrame, known: false}
  const problem = check(value)
  if (problem) return {ok: false, error: problem, raw}
  return {ok: true, frame: normalize(value), known: true}
}

/** The stable code at the start of an `error.detail` (`rate_limited: …` → `rate_limited`). */
export function errorCodeOf(detail: string): string {
  const match = /^([a-z][a-z0-9_]*)(?::|$)/.exec(detail)
  return match ? match[1] : 'error'
}

/** Text of a payload by the receiver rule: a string is text; an object is read through `.text` (and `.media`). */
export function payloadText(payload: unknown): string {
  if (typeof payload === 'string') return payload
  if (isObject(payload)) {
    const parts: string[] = []
    if (isString(payload.text)) parts.push(payload.text)
    if (Array.isArray(payload.media)) {
      for (const item of payload.media) {
        if (isObject(item)) parts.push(`[${isString(item.mime) ? item.mime : 'media'}${isString(item.url) ? ' ' + item.url : ''}]`)
      }
    }
    if (parts.length > 0) return parts.join(' ')
    if (isString(payload.delta)) return payload.delta
  }
  try {
    return JSON.stringify(payload) ?? String(payload)
  } catch {
    // Nested deeper than JSON.stringify goes (the relay passes any depth on).
    return '[a payload nested too deeply to show]'
  }
}

/** Tags shown for the resolved hashtags of a message (`board` and `ref`, whatever their shape). */
export function messageTags(frame: {board?: unknown; ref?: unknown}): string[] {
  const tags: string[] = []
  const add = (value: unknown, prefix: string) => {
    if (value === undefined || value === null) return
    if (Array.isArray(value)) return value.forEach((item) => add(item, prefix))
    if (isString(value) || typeof value === 'number') return void tags.push(`${prefix}${value}`)
    if (isObject(value)) {
      const name = value.slug ?? value.id ?? value.board_id ?? value.post_id ?? value.name
      if (isString(name)) tags.push(`${prefix}${name}`)
    }
  }
  add(frame.board, 'board:')
  add(frame.ref, 'ref:')
  return tags
}
