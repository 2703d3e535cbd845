/**
 * `GET /chat/conv/<conv>/thread[?limit=N]` (portal: it carries the
 * conversation's text): the conversation read back from the timeline
 * (read.ts). docs/daemon-api.md, Chat — the thread.
 */
import {invalid} from '../../../lib/errors.js'
import type {Route} from '../../route-table.js'
import type {DaemonContext} from '../../context.js'
import {unknownConv, type Engine} from '../engine.js'
import {convIdOf} from '../routes.js'
import {readThread} from './read.js'

/** Entries answered when no `limit` is given, and the most one may ask for. */
export const THREAD_DEFAULT_LIMIT = 1_000
export const THREAD_MAX_LIMIT = 10_000

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return THREAD_DEFAULT_LIMIT
  const limit = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN
  if (!(limit >= 1 && limit <= THREAD_MAX_LIMIT)) throw invalid('invalid_query', `limit is a whole number from 1 to ${THREAD_MAX_LIMIT}`, {field: 'limit'})
  return limit
}

export function threadRoutes(context: DaemonContext, engine: Engine): Route[] {
  return [
    {
      method: 'GET',
      path: '/chat/conv/:conv/thread',
      auth: 'portal',
      async handle({params, query}) {
        const conv = convIdOf(params.conv)
        const limit = limitOf(query.limit)
        // Lines appended a moment ago are still being written: the thread includes them.
        await context.timeline.flush()
        const thread = await readThread(context, conv, limit)
        const view = engine.conversation(conv)
        if (!thread && !view) throw unknownConv(conv)
        return {...(thread ?? {conv, member: null, entries: [], truncated: false, turns: {done: 0, failed: 0}, usage: {input_tokens: 0, output_tokens: 0, cost_usd: null, tool_calls: 0}}), member: view?.member ?? thread?.member ?? null, live: view?.live ?? false}
      },
    },
  ]
}
