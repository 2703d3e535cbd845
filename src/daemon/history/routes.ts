/**
 * `GET /timeline` (the days) and `GET /timeline/<day>` (one day's events),
 * behind the portal token: the timeline holds the team's conversations.
 * `GET /validate`: `mesh validate` of the project, as `--json` prints it
 * (the IDE's Project view; the page says it under `ux.validation`).
 * docs/daemon-api.md, History.
 */
import {invalid, notFound} from '../../lib/errors.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import {TIMELINE_DAY, TIMELINE_DEFAULT_LIMIT, TIMELINE_MAX_LIMIT} from './constants.js'
import {listTimelineDays, readTimelineDay} from './read.js'

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return TIMELINE_DEFAULT_LIMIT
  const value = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN
  if (!(value >= 1 && value <= TIMELINE_MAX_LIMIT)) throw invalid('invalid_query', `limit must be a number of events from 1 to ${TIMELINE_MAX_LIMIT}`, {field: 'limit'})
  return value
}

export function historyRoutes(context: DaemonContext): Route[] {
  return [
    {
      method: 'GET',
      path: '/timeline',
      auth: 'portal',
      handle: async () => ({days: await listTimelineDays(context.meshPath()), generated_at: new Date(context.clock()).toISOString()}),
    },
    {
      method: 'GET',
      path: '/timeline/:day',
      auth: 'portal',
      async handle({params, query}) {
        if (!TIMELINE_DAY.test(params.day) || Number.isNaN(Date.parse(params.day))) throw invalid('invalid_day', `A day is written YYYY-MM-DD (a UTC day), got "${params.day.slice(0, 40)}"`, {field: 'day'})
        const day = await readTimelineDay(context.meshPath(), params.day, parseLimit(query.limit))
        if (!day) throw notFound('day_not_found', `The timeline has no file for ${params.day}`)
        return day
      },
    },
    {
      method: 'GET',
      path: '/validate',
      auth: 'portal',
      // Loaded on the first call, as `mesh validate` loads it: the validator (ajv, every schema) is not needed to start.
      handle: async () => (await import('../../standard/validate/index.js')).validateProject(context.root),
    },
  ]
}
