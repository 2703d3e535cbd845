/**
 * `GET /architect`, `POST /architect/run` and `POST /architect/stop` (issue
 * 20; docs/daemon-api.md, Architect). All need the portal token: the status
 * carries the architect's own words (its `decisions:` line), and run and
 * stop act. Run and stop are the portal's buttons, so each logs the spec's
 * `ux.run-all` / `ux.stop-architect` before it acts.
 */
import type {DaemonContext} from '../context.js'
import {answer, type Route} from '../route-table.js'
import {PASS_CONV, TAG_RUN, TAG_STOP} from './constants.js'
import type {Passes} from './passes.js'
import type {Waker} from './wake.js'
import type {ArchitectStatus, EndedPass, PassView} from './wire.js'

export function architectRoutes(context: DaemonContext, passes: Passes, waker: Waker): Route[] {
  return [
    {
      method: 'GET',
      path: '/architect',
      auth: 'portal',
      async handle(): Promise<ArchitectStatus> {
        const board = await waker.board()
        const {auto, minIntervalSeconds} = context.settings().architect
        return {
          auto,
          min_interval_seconds: minIntervalSeconds,
          conv: PASS_CONV,
          busy: passes.busy() !== null,
          pass: passes.current(),
          last: passes.last(),
          dispatchable: board.dispatchable,
          drafts: board.drafts.map((task) => task.id),
          waiting: board.waiting.map((task) => ({id: task.id, waiting_on: task.waiting_on})),
          next_wake_at: waker.nextWakeAt(),
        }
      },
    },
    {
      method: 'POST',
      path: '/architect/run',
      auth: 'portal',
      async handle() {
        context.debug.log({lvl: 'info', tag: TAG_RUN, msg: 'the operator asked the architect for a pass (POST /architect/run)'})
        const pass: PassView = await waker.run()
        return answer(pass, 202)
      },
    },
    {
      method: 'POST',
      path: '/architect/stop',
      auth: 'portal',
      async handle(): Promise<EndedPass> {
        context.debug.log({lvl: 'info', tag: TAG_STOP, msg: 'the operator stopped the architect (POST /architect/stop)'})
        // A stop also drops a wake kept for later: the operator wants the architect to stop, not to start again at once.
        waker.dropKept()
        return passes.stop()
      },
    },
  ]
}
