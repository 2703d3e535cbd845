/**
 * The tasks the A2A handler keeps for `GetTask`: in memory, the oldest
 * dropped past A2A_TASKS_KEPT. The SDK's InMemoryTaskStore keeps every task
 * for the life of the process; a served agent answers for weeks.
 */
import type {TaskStore} from '@a2a-js/sdk/server'
import {A2A_TASKS_KEPT} from './constants.js'

type Task = Awaited<ReturnType<TaskStore['load']>> & {}

export function createBoundedTaskStore(limit = A2A_TASKS_KEPT): TaskStore {
  const tasks = new Map<string, Task>()
  return {
    async save(task) {
      tasks.delete(task.id)
      tasks.set(task.id, structuredClone(task))
      if (tasks.size > limit) tasks.delete(tasks.keys().next().value as string)
    },
    async load(taskId) {
      const task = tasks.get(taskId)
      return task && structuredClone(task)
    },
    // ListTasks is not offered: task ids are the only handle a caller has on another caller's answer.
    async list() {
      return {tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0}
    },
  }
}
