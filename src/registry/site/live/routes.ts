/**
 * `GET /site/events`: the site's one event stream per browser. It joins every
 * live area's hub, so one connection carries all their topics (data
 * `{"topic": "network" | "clusters", "event", "data"}`); the page script
 * `live.js` shares it among all the site's tabs of a browser. Refused whole (503 `too_many_streams`) when
 * the site's own cap or any area's is reached, so no area is silently missing.
 */
import type {Context, Next} from 'koa'
import {refuseStream, type EventStreamHub} from '../../../http/sse.js'
import {sendError} from '../../../http/error-middleware.js'
import {SITE_STREAM_PATH, STREAM_RETRY_MS} from '../constants.js'
import type {LiveTopic} from '../types.js'

export function liveMiddleware(options: {hub: EventStreamHub; topics: LiveTopic[]}) {
  const {hub, topics} = options
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== SITE_STREAM_PATH) return next()
    if (ctx.method !== 'GET') return sendError(ctx, 405, 'method_not_allowed', 'Open the event stream with GET')
    if (topics.some((topic) => topic.hub.full)) return refuseStream(ctx, STREAM_RETRY_MS)
    const stream = hub.open(ctx)
    if (!stream) return
    for (const topic of topics) topic.hub.join(stream, topic.hello)
  }
}
