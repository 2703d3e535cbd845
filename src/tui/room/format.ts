import type {ConnectionStatus} from '../../client/cluster/connection.js'
import type {RoomLine} from './room-state.js'

/** `HH:MM:SS` in local time; the raw string when it is not a date. */
export function clockTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso.slice(0, 8)
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')
}

/** Who a message line is from and to: `ada`, `ada → you`, `ada → bob` (an owner sees others' directs). */
export function lineHeader(line: RoomLine, you: string | undefined): string {
  if (line.kind === 'notice' || line.kind === 'error') return '*'
  const from = line.kind === 'mine' ? 'you' : (line.from ?? '?')
  if (line.to === null || line.to === undefined) return from
  return `${from} → ${line.to === you ? 'you' : line.to}`
}

/** What the ack said about your own line: nothing yet, delivered count, or the relay's refusal. */
export function deliveryMark(line: RoomLine): string {
  if (line.kind !== 'mine') return ''
  if (line.refused) return `✗ ${line.refused}`
  if (line.delivered === undefined) return '…'
  if (line.to && line.delivered === 0) return `✗ ${line.to} is not connected`
  return `✓${line.delivered}`
}

/** A stream line shows at most this many characters, its newest ones: a stream may carry 1 MiB, the pane holds a few rows. */
export const MAX_SHOWN_STREAM_CHARS = 500

const GIVEN_UP: Record<string, string> = {
  idle: 'the sender went silent',
  too_large: 'over the stream size limit',
  out_of_order: 'too many chunks out of order',
  too_many_streams: 'too many streams at once',
  disconnected: 'connection lost',
  closed: 'left',
}

/** The text of a line as shown: a long stream keeps its newest characters. */
export function shownText(line: RoomLine): string {
  if (!line.stream || line.text.length <= MAX_SHOWN_STREAM_CHARS) return line.text
  let start = line.text.length - MAX_SHOWN_STREAM_CHARS
  // Never start on the second half of a surrogate pair.
  if (/[\udc00-\udfff]/.test(line.text[start])) start += 1
  return `[${start} earlier characters] ${line.text.slice(start)}`
}

/** How far a stream line is: `streaming…` until its `done`, or why it was given up. */
export function streamMark(line: RoomLine): string {
  const stream = line.stream
  if (!stream || stream.state === 'done') return ''
  if (stream.state === 'open') return line.kind === 'mine' ? `sending ${stream.chunks} chunks…` : 'streaming…'
  const missing = stream.missing ? `, ${stream.missing} chunk${stream.missing === 1 ? '' : 's'} missing` : ''
  return `incomplete: ${GIVEN_UP[stream.reason ?? ''] ?? stream.reason ?? 'given up'}${missing}`
}

/** The status line: state, online count, countdown while reconnecting, last error. */
export function statusText(status: ConnectionStatus, online: number, nowMs: number): string {
  switch (status.state) {
    case 'idle':
    case 'connecting':
      return status.attempt > 0 ? `connecting… (attempt ${status.attempt + 1})` : 'connecting…'
    case 'connected':
      return `connected · ${online} online`
    case 'reconnecting': {
      const seconds = Math.max(0, Math.ceil(((status.retryAt ?? nowMs) - nowMs) / 1000))
      return `reconnecting in ${seconds}s (attempt ${status.attempt})${status.lastError ? ` · last error: ${status.lastError}` : ''}`
    }
    case 'gone':
      return 'cluster deleted · leaving'
    case 'failed':
      return `failed: ${status.lastError ?? 'connection refused'}`
    case 'closed':
      return 'closed'
  }
}
