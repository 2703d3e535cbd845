/**
 * The architect area (issue 20; docs/daemon.md, Architect): passes in which
 * the coordinating architect works through the dispatchable tasks, started
 * by the operator or — with `architect.auto` — by a task that became
 * dispatchable, and stopped by the operator. It runs on the chat area's
 * engine and delegation, so it is listed after the chat area in areas.ts.
 */
import type {DaemonArea} from '../area.js'
import {chatPartsOf} from '../chat/index.js'
import type {DaemonContext} from '../context.js'
import {createPasses} from './passes.js'
import {architectRoutes} from './routes.js'
import {createWaker} from './wake.js'

export function architectArea(context: DaemonContext): DaemonArea {
  const chat = chatPartsOf(context)
  const passes = createPasses(context, chat)
  const waker = createWaker(context, passes, chat)
  return {
    name: 'architect',
    routes: architectRoutes(context, passes, waker),
    async start() {
      // A pass a killed daemon left gets its end (failed) before anything can start another.
      passes.recover()
      await waker.start()
    },
    async close() {
      // Before the chat area closes (areas close in reverse order): the pass ends while its turn is still known.
      waker.close()
      await passes.close()
    },
  }
}
