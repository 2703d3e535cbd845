/**
 * `POST /tasks/<id>/transition`: the moves of `mesh task move` (status words,
 * dispatchability, `updated`, `completed_at`, archived tasks refused) with
 * the daemon's rules on top — the write goes through the project writer
 * (snapshot, atomic) under the task lock, only the operator takes a task out
 * of draft (spec: States and transitions), and `task.updated` tells every
 * /events subscriber, in the one shape of src/protocol/tasks.ts.
 */
import {createMutex, type Mutex} from '../../lib/mutex.js'
import {BY_OPERATOR, TASK_UPDATED_EVENT, taskUpdatedData} from '../../protocol/tasks.js'
import type {MovedTask} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import {daemonTaskError} from './lookup.js'
import {taskIndex} from './task-index.js'
import {moveTaskAs, type MoveInput, type TaskWriteTarget} from './task-writes.js'

/** Who a portal-token caller is unless it says otherwise (docs/daemon-api.md, Tasks). */
export const OPERATOR = BY_OPERATOR

export type TransitionInput = MoveInput

const mutexes = new WeakMap<DaemonContext, Mutex>()

/** The one transition mutex of a daemon: the tasks area's routes and task resolution take turns on it. */
export function taskMutex(context: DaemonContext): Mutex {
  let mutex = mutexes.get(context)
  if (!mutex) mutexes.set(context, (mutex = createMutex()))
  return mutex
}

/** The daemon as a task write target: its project, its writer, its clock, its task index. */
export const daemonTarget = (context: DaemonContext): TaskWriteTarget => {
  const index = taskIndex(context)
  return {root: context.root, writer: context.writer, now: () => new Date(context.clock()), records: () => index.records()}
}

/** Moves the task, one transition at a time in this daemon (`mutex`), and publishes `task.updated` when it changed. */
export async function transitionTask(context: DaemonContext, mutex: Mutex, input: TransitionInput): Promise<MovedTask> {
  const moved = await mutex.run(async () => {
    try {
      return await moveTaskAs(daemonTarget(context), input)
    } catch (error) {
      throw daemonTaskError(error)
    }
  })
  if (moved.changed) {
    const {id, path, module, from, to, dispatchable, completed_at} = moved
    context.events.publish(TASK_UPDATED_EVENT, taskUpdatedData({id, path, module, from, to, dispatchable, completed_at, by: input.by}))
  }
  return moved
}
