/**
 * The tasks area: task transitions over HTTP with the rules of `mesh task
 * move` (docs/daemon-api.md, Tasks). One mutex per daemon keeps two
 * transitions of the same file from interleaving.
 */
import {createMutex} from '../../lib/mutex.js'
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {taskRoutes} from './routes.js'

export {assertTaskId, daemonTaskError, findTaskForDaemon} from './lookup.js'
export {OPERATOR, transitionTask, type TransitionInput} from './transition.js'

export function tasksArea(context: DaemonContext): DaemonArea {
  return {name: 'tasks', routes: taskRoutes(context, createMutex())}
}
