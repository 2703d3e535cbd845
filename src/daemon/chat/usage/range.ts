/**
 * The range of `GET /usage?since=&until=` (docs/daemon-api.md, Usage): each
 * bound a UTC date (`2026-11-20`) or an ISO timestamp with its offset
 * (`2026-11-20T08:00:00Z`, `…+02:00`). A date `since` starts at that day's
 * 00:00 UTC; a date `until` includes that whole day. Defaults: the last
 * seven UTC days, up to now. Anything else is a 400 naming the parameter.
 */
import {invalid} from '../../../lib/errors.js'
import {USAGE_DEFAULT_DAYS, USAGE_MAX_DAYS} from './constants.js'

const DAY_MS = 24 * 60 * 60 * 1000
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

export interface UsageRange {
  /** First instant counted (ms). */
  since: number
  /** First instant no longer counted (ms). */
  until: number
}

/** 00:00 UTC of the day holding `ms`. */
export const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS

/** Whether year, month and day name a real calendar day (2026-02-30 does not). */
function realDay(year: string, month: string, day: string): number | null {
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day))
  return new Date(ms).toISOString().slice(0, 10) === `${year}-${month}-${day}` ? ms : null
}

function parseBound(name: 'since' | 'until', raw: string): number {
  const problem = (why: string) => invalid('invalid_query', `${name} ${why}; give a UTC date (2026-11-20) or an ISO timestamp with its offset (2026-11-20T08:00:00Z)`, {field: name})
  const date = DATE.exec(raw)
  if (date) {
    const day = realDay(date[1], date[2], date[3])
    if (day === null) throw problem(`is not a calendar day: ${JSON.stringify(raw)}`)
    // A date `until` names the last day counted: the range ends where the next one begins.
    return name === 'until' ? day + DAY_MS : day
  }
  const stamp = TIMESTAMP.exec(raw)
  if (!stamp) throw problem(`is not a date or a timestamp: ${JSON.stringify(raw.slice(0, 40))}`)
  const ms = Date.parse(raw)
  const hour = Number(stamp[4])
  const minute = Number(stamp[5])
  const second = Number(stamp[6] ?? 0)
  if (realDay(stamp[1], stamp[2], stamp[3]) === null || hour > 23 || minute > 59 || second > 59 || Number.isNaN(ms)) throw problem(`is not a real instant: ${JSON.stringify(raw.slice(0, 40))}`)
  return ms
}

/** The range a query asks for, checked; `now` is the daemon's clock. */
export function parseUsageRange(query: {since?: string; until?: string}, now: number): UsageRange {
  const until = query.until === undefined ? now : parseBound('until', query.until)
  const since = query.since === undefined ? startOfUtcDay(Math.min(until, now) - 1) - (USAGE_DEFAULT_DAYS - 1) * DAY_MS : parseBound('since', query.since)
  if (since >= until) throw invalid('invalid_query', `since (${new Date(since).toISOString()}) is not before until (${new Date(until).toISOString()})`, {field: 'since'})
  if (until - since > USAGE_MAX_DAYS * DAY_MS) throw invalid('invalid_query', `the range is longer than ${USAGE_MAX_DAYS} days; ask for a shorter one`, {field: 'since'})
  return {since, until}
}

/** The UTC days (`YYYY-MM-DD`) a range touches, first to last. */
export function daysOf(range: UsageRange): string[] {
  const days: string[] = []
  for (let day = startOfUtcDay(range.since); day < range.until; day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10))
  return days
}
