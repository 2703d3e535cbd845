/**
 * The session-log area (issue 20, deliverable 4; docs/daemon.md, Session
 * log): no routes; one prose line in `.mesh/log/<local date>.md` per turn,
 * architect pass, commit and task move, each also said in the debug stream
 * under the spec's `log` tag.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {LOGGED_EVENTS, SESSION_LOG_TAG} from './constants.js'
import {sessionLogLine} from './lines.js'
import {createSessionLog} from './writer.js'

export {sessionLogLine, localDay} from './lines.js'

export function sessionLogArea(context: DaemonContext): DaemonArea {
  const log = createSessionLog(context)
  let unsubscribe: (() => void) | undefined
  return {
    name: 'session-log',
    routes: [],
    start() {
      unsubscribe = context.events.subscribe((event) => {
        if (!(LOGGED_EVENTS as readonly string[]).includes(event.type)) return
        const prose = sessionLogLine(event.type, event.data)
        if (prose === null) return
        const data = (event.data ?? {}) as {conv?: unknown; profile?: unknown; member?: unknown; author?: unknown}
        const agent = [data.profile, data.member, data.author].find((value): value is string => typeof value === 'string' && value !== '' && value !== 'daemon')
        context.debug.log({lvl: 'info', tag: SESSION_LOG_TAG, msg: prose, ...(typeof data.conv === 'string' ? {conv: data.conv} : {}), ...(agent ? {agent_id: agent} : {}), data: {event: event.type}})
        log.append(prose, Date.parse(event.ts))
      })
    },
    async close() {
      unsubscribe?.()
      await log.flush()
    },
  }
}
