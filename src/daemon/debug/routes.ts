/**
 * `GET /debug/tail` and `POST /debug/log` (spec: Endpoints, Logs and debug
 * stream). Both need the portal token. An IDE posts its own events, stamped
 * `src: "Architect IDE"` whatever it sends; a batch is all-or-nothing, so a
 * bad event never leaves half a batch written. docs/daemon-api.md, Debug.
 */
import {invalid} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import {DEBUG_RETENTION_MS, DEBUG_TAIL_DEFAULT_SECS} from '../constants.js'
import type {DaemonContext} from '../context.js'
import {DEBUG_LEVELS, type DebugInput, type DebugLevel} from '../debug-stream.js'
import type {Route} from '../route-table.js'

const MAX_LAST_SECS = Math.ceil(DEBUG_RETENTION_MS / 1000)
const TAG = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*$/

function parseLast(raw: string | undefined): number {
  if (raw === undefined) return DEBUG_TAIL_DEFAULT_SECS
  if (!/^\d{1,9}$/.test(raw)) throw invalid('invalid_query', `last must be a number of seconds (0 to ${MAX_LAST_SECS}), got "${raw.slice(0, 40)}"`, {field: 'last'})
  // More than the retention window holds nothing more; served as the whole stream.
  return Math.min(Number(raw), MAX_LAST_SECS)
}

function parseCursor(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  if (!/^\d{1,15}$/.test(raw)) throw invalid('invalid_query', 'cursor must be the `cursor` of an earlier answer', {field: 'cursor'})
  return Number(raw)
}

function parseTags(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw === '') return undefined
  const tags = raw.split(',').map((t) => t.trim()).filter(Boolean)
  const bad = tags.find((t) => !TAG.test(t))
  if (bad !== undefined) throw invalid('invalid_query', `tag must be a comma list of kebab-case tags (dotted sub-namespaces allowed), got "${bad.slice(0, 40)}"`, {field: 'tag'})
  return tags
}

function parseLevel(raw: string | undefined): DebugLevel | undefined {
  if (raw === undefined) return undefined
  if (!(DEBUG_LEVELS as readonly string[]).includes(raw)) throw invalid('invalid_query', `level must be one of ${DEBUG_LEVELS.join(', ')}`, {field: 'level'})
  return raw as DebugLevel
}

export function debugRoutes(context: DaemonContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/debug/tail',
      auth: 'portal',
      handle: ({query}) => context.debug.tail({lastSecs: parseLast(query.last), tags: parseTags(query.tag), level: parseLevel(query.level), after: parseCursor(query.cursor)}),
    },
    {
      method: 'POST',
      path: '/debug/log',
      auth: 'portal',
      async handle(request) {
        const body = await request.body()
        const events = 'events' in body ? assertValid<{events: DebugInput[]}>('daemon-debug-log', body).events : [assertValid<DebugInput>('daemon-debug-input', body)]
        for (const event of events) context.debug.log({...event, src: 'Architect IDE'})
        return {accepted: events.length}
      },
    },
  ]
}
