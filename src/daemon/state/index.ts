/**
 * The generated-state area (issue 20, deliverables 3 and 6; docs/daemon.md,
 * Generated state): no routes; it rebuilds `roadmap/state.json`,
 * `roadmap/state.js`, `.mesh/state.json` and `architect/roadmap.html` at
 * start and after every change that can alter them, and warns on `/health`
 * about initiatives a draft holds active (spec v15).
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {createStateRebuilder, type StateRebuilderOptions} from './rebuild.js'
import {affectsState, causeOfEvent} from './triggers.js'

export {DAEMON_STATE_FILE, ROADMAP_PAGE_FILE, STATE_REBUILT_EVENT} from './constants.js'
export {daemonState, type DaemonState} from './daemon-state.js'
export {renderRoadmapPage} from './roadmap-page.js'
export type {StateRebuiltData} from './rebuild.js'

export function stateArea(context: DaemonContext, options: StateRebuilderOptions = {}): DaemonArea {
  const rebuilder = createStateRebuilder(context, options)
  const unsubscribe: Array<() => void> = []
  return {
    name: 'state',
    routes: [],
    async start() {
      // The daemon's own writes (routes, task resolution, restores) are skipped by the watcher as echoes: heard here.
      unsubscribe.push(context.writer.onWrite((written) => affectsState(written.path) && rebuilder.changed(written.path)))
      // Everything else (an editor, another process, git pull) reaches the bus through the watcher.
      unsubscribe.push(
        context.events.subscribe((event) => {
          const cause = causeOfEvent(event)
          if (cause !== null) rebuilder.changed(cause)
        }),
      )
      // Files may have changed while no daemon ran: the state is current from the first request.
      await rebuilder.rebuildNow('start')
    },
    async close() {
      for (const stop of unsubscribe.splice(0)) stop()
      await rebuilder.close()
    },
    warnings() {
      const problem = rebuilder.problem()
      return [...(problem ? [problem] : []), ...(rebuilder.last()?.warnings ?? [])]
    },
  }
}
