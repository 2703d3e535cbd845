/** Human lines for the inbox commands (a terminal); pipes get NDJSON instead. */
import type {InboxMessage} from '../../registry/wire.js'

const MAX_PREVIEW = 200

/** `#12  2026-06-15 12:00:03  from planner  {"ask":"forecast"}` */
export function formatMessageLine(message: InboxMessage): string {
  const when = message.ts.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
  let body = JSON.stringify(message.payload)
  if (body.length > MAX_PREVIEW) body = body.slice(0, MAX_PREVIEW - 1) + '…'
  return `#${message.id}  ${when}  from ${message.from}  ${body}`
}

/** One line per server frame of `mesh inbox watch` on a terminal. */
export function formatFrameLine(frame: Record<string, unknown>): string {
  switch (frame.type) {
    case 'message':
      return formatMessageLine(frame as unknown as InboxMessage)
    case 'receipt':
      return `receipt: ${(frame.message_ids as number[]).map((id) => '#' + id).join(', ')} ${frame.via === 'webhook' ? 'accepted by the webhook of' : 'read by'} ${frame.read_by}`
    case 'welcome':
      return `connected as ${frame.agent_id}${Number(frame.inbox) > 0 ? ` — ${frame.inbox} message(s) wait in the inbox (mesh inbox read)` : ''}`
    case 'error':
      return `error ${frame.code}: ${frame.message}`
    default:
      return JSON.stringify(frame)
  }
}

/**
 * Reads a `--payload` value: JSON when it parses (`{"a":1}`, `42`, `"text"`,
 * `null`), else the text itself as a JSON string, so `--payload hello` works.
 */
export function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
