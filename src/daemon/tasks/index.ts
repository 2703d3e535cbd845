/**
 * The tasks area: task transitions over HTTP with the rules of `mesh task
 * move` (docs/daemon-api.md, Tasks). One mutex per daemon (`taskMutex`,
 * shared with task resolution) keeps two transitions of the same file from
 * interleaving.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {taskRoutes} from './routes.js'
import {taskMutex} from './transition.js'

export {assertTaskId, daemonTaskError, findTaskForDaemon} from './lookup.js'
export {OPERATOR, taskMutex, transitionTask, type TransitionInput} from './transition.js'

export function tasksArea(context: DaemonContext): DaemonArea {
  return {name: 'tasks', routes: taskRoutes(context, taskMutex(context))}
}
