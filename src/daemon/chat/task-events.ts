/**
 * The timeline's task events of turns (spec: Logs — `task.started`,
 * `task.failed`; issue 20, deliverable 4): `task.started` when a turn
 * anchored to a task starts on it (its `chat.turn.started` carries the
 * anchor the turn was given), `task.failed` when that same turn fails. A
 * task's completion is `task.completed`, written by task resolution. An
 * anchor that names no active task (a typo, an archived task) starts
 * nothing. docs/daemon-api.md, Chat.
 */
import {TASK_FAILED_EVENT, TASK_STARTED_EVENT, type TaskFailedData, type TaskStartedData} from '../../protocol/tasks.js'
import {findTask} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import type {ChatFinalData, ChatTurnStartedData} from './wire.js'

interface Started {
  task: string
  initiative?: string
}

/** Listens to the bus for turns starting and ending; returns the unsubscribe. */
export function startTaskEvents(context: DaemonContext): () => void {
  /** Turns that started on a task, by turn id, until their final: the lookup may still run when a quick turn ends. */
  const started = new Map<string, Promise<Started | null>>()

  const startOn = async (data: ChatTurnStartedData): Promise<Started | null> => {
    const id = data.anchor?.task
    if (!id) return null
    const record = await findTask(context.root, id).catch(() => null)
    if (!record || record.archived) return null
    const initiative = data.anchor?.initiative
    context.timeline.append(TASK_STARTED_EVENT, {
      author: data.profile,
      text: `${data.profile} started on #${record.id}`,
      task: record.id,
      ...(initiative ? {initiative} : {}),
      conv: data.conv,
      turn_id: data.turn_id,
      member: data.member,
    } satisfies TaskStartedData)
    return {task: record.id, ...(initiative ? {initiative} : {})}
  }

  const endOf = async (data: ChatFinalData, pending: Promise<Started | null>) => {
    const on = await pending
    if (!on || data.status !== 'failed') return
    const reason = data.reason ?? 'failed'
    context.timeline.append(TASK_FAILED_EVENT, {
      author: data.profile,
      text: `${data.profile}'s turn on #${on.task} failed (${reason})`,
      ...on,
      conv: data.conv,
      turn_id: data.turn_id,
      member: data.member,
      reason,
      ...(data.detail ? {detail: data.detail} : {}),
    } satisfies TaskFailedData)
  }

  return context.events.subscribe((event) => {
    if (event.type === 'chat.turn.started') {
      const data = event.data as ChatTurnStartedData
      if (data.anchor?.task) started.set(data.turn_id, startOn(data).catch(() => null))
    } else if (event.type === 'chat.assistant.final') {
      const data = event.data as ChatFinalData
      const pending = started.get(data.turn_id)
      if (!pending) return
      started.delete(data.turn_id)
      void endOf(data, pending).catch(() => {})
    }
  })
}
