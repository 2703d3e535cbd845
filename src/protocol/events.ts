/**
 * The envelope of every event the daemon publishes on its bus and sends on
 * `WS /events` (DECISIONS: Daemon events — `{type, ts, data}`), and the
 * parser a subscriber reads a message with. The payloads of each area are
 * beside their rules: tasks.ts, watch.ts, team.ts, queue.ts (chat's in
 * src/daemon/chat/wire.ts). docs/daemon-api.md lists every type. Nothing
 * here imports anything.
 */

export interface DaemonEvent<T = unknown> {
  type: string
  /** ISO-8601 UTC with milliseconds. */
  ts: string
  data: T
}

/** An event as a subscriber receives it: `data` an object whose fields it still checks. */
export type DaemonEventMessage = DaemonEvent<Record<string, unknown>>

/** One `/events` message as an event, or null when it is not JSON or not an envelope with an object `data`. */
export function parseDaemonEvent(text: string): DaemonEventMessage | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  const event = value as DaemonEventMessage | null
  return event && typeof event.type === 'string' && event.data && typeof event.data === 'object' ? event : null
}
