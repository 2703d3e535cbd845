/**
 * Frames of the agent WebSocket (`GET /v1/agents/ws`). Client frames are the
 * spec's (`msg_type`); server frames carry `type`, like the cluster relay's
 * (DECISIONS "Frame type key"). Every server frame is listed in docs/messaging.md.
 */
import type {ReceiptPayload} from '../service.js'

/** A client's correlation value, echoed on the answer to its frame. */
export type Ref = string | number

/** spec Events: `{msg_type: connect_to, to}` opens a direct room with a peer. */
export interface ConnectToFrame {
  msg_type: 'connect_to'
  to: string
  ref?: Ref
}

/** spec Events: `{msg_type: message, to, payload}`; `to` may be left out after a `connect_to`. */
export interface MessageFrame {
  msg_type: 'message'
  to?: string
  payload: unknown
  ref?: Ref
}

/** Application-level ping for clients that cannot see WebSocket pings (browsers). */
export interface PingFrame {
  msg_type: 'ping'
  ref?: Ref
}

export type ClientFrame = ConnectToFrame | MessageFrame | PingFrame

export type ServerFrame =
  | {type: 'welcome'; agent_id: string; node_id: string; inbox: number; limits: {max_frame_bytes: number; rate_limit: number; rate_window_ms: number}}
  | {type: 'message'; id: number; from: string; payload: unknown; ts: string}
  | {type: 'delivered'; to: string; id: number; sockets: number; ref?: Ref}
  | {type: 'queued'; to: string; id: number; via: 'inbox' | 'webhook'; ref?: Ref}
  | {type: 'room_open'; to: string; online: boolean; ref?: Ref}
  | ({type: 'receipt'} & Omit<ReceiptPayload, 'type'>)
  | {type: 'pong'; ref?: Ref}
  | {type: 'error'; code: string; message: string; ref?: Ref}

/** Thrown by {@link parseClientFrame}; becomes an `error` frame with this code. */
export class FrameError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly ref?: Ref,
  ) {
    super(message)
  }
}

const isRef = (value: unknown): value is Ref =>
  (typeof value === 'string' && value.length <= 64) || (typeof value === 'number' && Number.isFinite(value))

/** Reads one text frame into a client frame, or throws a FrameError naming what is wrong. */
export function parseClientFrame(text: string): ClientFrame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new FrameError('invalid_json', 'Frame is not valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FrameError('invalid_frame', 'Frame must be a JSON object')
  const frame = value as Record<string, unknown>
  if (frame.ref !== undefined && !isRef(frame.ref)) throw new FrameError('invalid_frame', '`ref` must be a string of at most 64 characters or a number')
  const ref = frame.ref as Ref | undefined
  switch (frame.msg_type) {
    case 'connect_to':
      if (typeof frame.to !== 'string') throw new FrameError('invalid_frame', 'connect_to needs `to`, the peer agent id', ref)
      return {msg_type: 'connect_to', to: frame.to, ref}
    case 'message':
      if (frame.to !== undefined && typeof frame.to !== 'string') throw new FrameError('invalid_frame', '`to` must be an agent id', ref)
      return {msg_type: 'message', to: frame.to as string | undefined, payload: frame.payload, ref}
    case 'ping':
      return {msg_type: 'ping', ref}
    case undefined:
      throw new FrameError('invalid_frame', 'Frame needs `msg_type` (connect_to, message or ping)', ref)
    default:
      throw new FrameError('unknown_msg_type', `Unknown msg_type ${JSON.stringify(frame.msg_type).slice(0, 60)}; expected connect_to, message or ping`, ref)
  }
}
