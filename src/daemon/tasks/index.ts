/**
 * The tasks area (docs/daemon-api.md, Tasks; docs/daemon.md, Tasks): task
 * create, transition and archive over HTTP with the rules of `mesh task`,
 * plus the daemon's bookkeeping — commit SHAs recorded in `commit_shas`, done
 * tasks archived when cluster.yaml asks. One mutex per daemon (`taskMutex`,
 * shared with task resolution) and the cross-process task lock keep two
 * writes of the same file from interleaving.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {taskBackground} from './background.js'
import {taskRoutes} from './routes.js'
import {taskMutex} from './transition.js'

export {assertTaskId, daemonTaskError, findTaskForDaemon} from './lookup.js'
export {OPERATOR, daemonTarget, taskMutex, transitionTask, type TransitionInput} from './transition.js'
export {archiveTasks, createTaskForCaller, recordCommit} from './authoring.js'
export {assertActor, assertDraftRule, archiveTasksAs, createTaskAs, moveTaskAs, recordShaAs, withTasksLock, type MoveInput, type TaskWriteTarget} from './task-writes.js'
export {boardOf, readBoard, type BoardAnswer, type BoardTask} from './board.js'
export {taskIndex, type TaskIndex, type TaskIndexFollower} from './task-index.js'
export {COMMIT_SHAS_REASON, DEFAULT_ARCHIVE_DAYS} from './constants.js'

export function tasksArea(context: DaemonContext): DaemonArea {
  const background = taskBackground(context)
  return {
    name: 'tasks',
    routes: taskRoutes(context, taskMutex(context)),
    start: () => background.start(),
    close: () => background.close(),
  }
}
