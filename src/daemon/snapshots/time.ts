/**
 * The `at` and `before` of a restore (`mesh daemon restore --at|--before`, `POST /snapshots/restore`):
 * an ISO-8601 date-time with its zone (`2026-01-05T10:00:00Z`,
 * `2026-01-05T12:00+02:00`), or a date (`2026-01-05`), which means the end of
 * that UTC day — "the file as that day left it". docs/daemon.md, Restore.
 */
import {invalid} from '../../lib/errors.js'

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/
const DAY_MS = 24 * 60 * 60 * 1000

/** `2026-02-30` is no day, though Date.parse takes it for 2 March. */
const realDay = (day: string) => {
  const start = Date.parse(`${day}T00:00:00Z`)
  return !Number.isNaN(start) && new Date(start).toISOString().slice(0, 10) === day ? start : null
}

/** Milliseconds since the epoch, or null when `text` is neither form. */
export function parseSnapshotTime(text: string): number | null {
  if (typeof text !== 'string') return null
  if (DATE.test(text)) {
    const start = realDay(text)
    return start === null ? null : start + DAY_MS - 1
  }
  const match = DATE_TIME.exec(text)
  if (!match || realDay(match[1]) === null) return null
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : at
}

/** parseSnapshotTime, throwing a 400-kind MeshError with `code` (the CLI passes a `usage_…` code: exit 2). */
export function snapshotTime(text: string, code: string, field = 'at'): number {
  const at = parseSnapshotTime(text)
  if (at === null) throw invalid(code, `${field} must be an ISO-8601 date-time with its zone (2026-01-05T10:00:00Z) or a date (2026-01-05), got "${String(text).slice(0, 40)}"`, {field})
  return at
}
