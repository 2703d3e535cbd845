/**
 * The frames of the cluster WebSocket (spec: Endpoints — server frames;
 * DECISIONS: every server frame carries `type`; `error.detail` starts with a
 * stable code). Server frames are serialized here, once, into the bytes
 * every recipient gets. Client frames are parsed here.
 */
import type {ResolvedTags} from '../types.js'
import {rawMember} from './raw-member.js'

/** DECISIONS: `closed.reason`. */
export type ClosedReason = 'deleted' | 'slow_consumer' | 'server_shutdown' | 'idle'

/** Stable codes that open an `error` frame's detail. */
export type ErrorFrameCode = 'frame_too_large' | 'rate_limited' | 'invalid_frame' | 'busy' | 'unavailable' | 'internal_error'

export interface ReadyFrame {
  type: 'ready'
  you: string
  you_did: string | null
  public: boolean
  owner: boolean
  online: string[]
}

export interface PresenceFrame {
  type: 'presence'
  agent: string
  did: string | null
  status: 'online' | 'offline'
}

export interface MessageFrame extends ResolvedTags {
  type: 'message'
  from: string
  from_did?: string
  to: string | null
  ts: string
  payload: unknown
}

export interface AckFrame {
  type: 'ack'
  to: string | null
  delivered: number
}

export interface ClosedFrame {
  type: 'closed'
  reason: ClosedReason
}

export interface ErrorFrame {
  type: 'error'
  detail: string
}

export type ServerFrame = ReadyFrame | PresenceFrame | MessageFrame | AckFrame | ClosedFrame | ErrorFrame

/** One serialization; the same Buffer is handed to every recipient. */
export const encodeFrame = (frame: ServerFrame): Buffer => Buffer.from(JSON.stringify(frame), 'utf8')

export const presenceFrame = (agent: string, did: string | null, status: 'online' | 'offline') =>
  encodeFrame({type: 'presence', agent, did, status})

export const errorFrame = (code: ErrorFrameCode, message: string) => encodeFrame({type: 'error', detail: `${code}: ${message}`})

/** `closed` frames are tiny and few: built once per reason. */
export const CLOSED_FRAMES: Record<ClosedReason, Buffer> = {
  deleted: encodeFrame({type: 'closed', reason: 'deleted'}),
  slow_consumer: encodeFrame({type: 'closed', reason: 'slow_consumer'}),
  server_shutdown: encodeFrame({type: 'closed', reason: 'server_shutdown'}),
  idle: encodeFrame({type: 'closed', reason: 'idle'}),
}

/**
 * A message frame: `from_did`, `board` and `ref` only when set (spec:
 * `from_did?`, `board?`, `ref?`), keys in the order of the spec's table.
 * `payloadJson` is the payload's JSON text, spliced in as it is: for a
 * member's send it is the exact text the member sent (ws/raw-member.ts), so
 * the payload reaches peers untouched.
 */
export function messageFrame(input: {from: string; fromDid: string | null; to: string | null; ts: string; payloadJson: string; tags?: ResolvedTags}): Buffer {
  let json = '{"type":"message","from":' + JSON.stringify(input.from)
  if (input.fromDid) json += ',"from_did":' + JSON.stringify(input.fromDid)
  json += ',"to":' + (input.to === null ? 'null' : JSON.stringify(input.to)) + ',"ts":' + JSON.stringify(input.ts) + ',"payload":' + input.payloadJson
  if (input.tags?.board) json += ',"board":' + JSON.stringify(input.tags.board)
  if (input.tags?.ref) json += ',"ref":' + JSON.stringify(input.tags.ref)
  return Buffer.from(json + '}', 'utf8')
}

/** What a member asked to send. */
export interface ClientSend {
  /** null = broadcast. */
  to: string | null
  /** The parsed payload, read for hashtags (payloadText). */
  payload: unknown
  /** The payload's JSON text as the member wrote it, relayed as is. */
  payloadJson: string
}

export type ParsedClientFrame = {ok: true; send: ClientSend} | {ok: false; detail: string}

/** A broadcast of `text` as a string payload. */
const textSend = (text: string): ParsedClientFrame => ({ok: true, send: {to: null, payload: text, payloadJson: JSON.stringify(text)}})

/**
 * spec: Client frames — bare string (broadcast), `{payload}` (broadcast),
 * `{to, payload}` (direct). A JSON string is unwrapped; any text that is not
 * a JSON object (plain words, a number, an array) is broadcast as the text
 * itself, so a human typing in a raw WebSocket client is understood.
 */
export function parseClientFrame(text: string): ParsedClientFrame {
  let value: unknown
  const first = text.trimStart()[0]
  if (first === '{' || first === '"') {
    try {
      value = JSON.parse(text)
    } catch {
      value = undefined
    }
  }
  // JSON.parse accepted it, so only JSON whitespace surrounds the string's own text.
  if (typeof value === 'string') return {ok: true, send: {to: null, payload: value, payloadJson: text.trim()}}
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return textSend(text)
  const object = value as Record<string, unknown>
  if (!('payload' in object)) return {ok: false, detail: 'an object frame needs a "payload" key: {"payload": …} or {"to": "<handle>", "payload": …}'}
  const to = object.to
  if (to !== undefined && to !== null && (typeof to !== 'string' || to === '')) {
    return {ok: false, detail: '"to" must be a non-empty handle string, or null for a broadcast'}
  }
  const payloadJson = rawMember(text, 'payload')!
  return {ok: true, send: {to: typeof to === 'string' ? to : null, payload: object.payload, payloadJson}}
}

/** The text to scan for hashtags: a string payload, or `payload.text` (spec: receiver rule). */
export function payloadText(payload: unknown): string | null {
  if (typeof payload === 'string') return payload
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) {
    const text = (payload as {text?: unknown}).text
    if (typeof text === 'string') return text
  }
  return null
}
