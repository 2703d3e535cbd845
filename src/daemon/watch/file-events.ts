/**
 * Turns a settled burst of changes to one path into the event consumers want
 * (docs/daemon-api.md, Events from files): runbooks, run logs, links,
 * cluster.yaml, tasks, timeline lines, and `file.changed` for the rest.
 * Payloads stay small: paths and ids, never file contents, except the parsed
 * timeline lines.
 */
import type {Stats} from 'node:fs'
import {lstat} from 'node:fs/promises'
import {MESH_DIR} from '../../protocol/daemon.js'
import type {DaemonContext} from '../context.js'
import {classifyPath} from './classify.js'
import {TIMELINE_EVENTS_PER_MESSAGE} from './constants.js'
import type {SettledBurst} from './debounce.js'
import type {OwnWrites} from './own-writes.js'
import {readTaskInfo} from './task-info.js'
import type {TimelineReader} from './timeline-reader.js'
import {DAEMON_TIMELINE_SRC} from '../chat/constants.js'

export type FileChange = 'added' | 'changed' | 'removed'

/** The event types the watcher publishes. */
export const FILE_EVENT_TYPES = {
  workflow: 'workflows.updated',
  workflowRun: 'workflows.run.updated',
  protocol: 'protocols.updated',
  protocolRun: 'protocols.run.updated',
  links: 'links.updated',
  cluster: 'cluster.updated',
  taskCreated: 'task.created',
  taskUpdated: 'task.updated',
  taskDeleted: 'task.deleted',
  timeline: 'timeline.appended',
  file: 'file.changed',
} as const

export interface FileEvents {
  handle(burst: SettledBurst): Promise<void>
}

export function createFileEvents(context: DaemonContext, deps: {ownWrites: OwnWrites; timeline: TimelineReader}): FileEvents {
  const {events, debug} = context
  /** The id last read from each task file, for the `task.deleted` of a file that is gone. */
  const taskIds = new Map<string, string>()

  return {
    async handle({path, existedBefore}) {
      const absolute = context.meshPath(...path.split('/'))
      // lstat: a link is not a file of the project (issue 18); it is never read, nor announced.
      const stats: Stats | null = await lstat(absolute).catch(() => null)
      if (stats && !stats.isFile()) return
      const change: FileChange | null = stats ? (existedBefore ? 'changed' : 'added') : existedBefore ? 'removed' : null
      // Created and gone within one burst: a scratch file nobody needs to hear of.
      if (change === null) return
      const file = classifyPath(path)
      if (!stats && deps.ownWrites.isRemovalEcho(path)) {
        debug.log({lvl: 'debug', tag: 'watch.own-write', msg: `${path}: removed by the daemon, announced by the area that removed it`})
        return
      }
      // Timeline lines are appended, never written through the project writer: they are always read.
      if (stats && file.kind !== 'timeline' && (await deps.ownWrites.isEcho(path, stats))) {
        debug.log({lvl: 'debug', tag: 'watch.own-write', msg: `${path}: written by the daemon, announced by the area that wrote it`})
        return
      }
      const shown = `${MESH_DIR}/${path}`
      switch (file.kind) {
        case 'workflow':
          events.publish(FILE_EVENT_TYPES.workflow, {id: file.id, path: shown, change})
          return
        case 'workflow-run':
          events.publish(FILE_EVENT_TYPES.workflowRun, {id: file.id, path: shown, change})
          return
        case 'protocol':
          events.publish(FILE_EVENT_TYPES.protocol, {id: file.id, path: shown, change})
          return
        case 'protocol-run':
          events.publish(FILE_EVENT_TYPES.protocolRun, {id: file.id, path: shown, change})
          return
        case 'links':
          events.publish(FILE_EVENT_TYPES.links, {module: null, by: 'file'})
          return
        case 'cluster':
          events.publish(FILE_EVENT_TYPES.cluster, {})
          return
        case 'task': {
          if (change === 'removed') {
            const id = taskIds.get(path) ?? file.nameId
            taskIds.delete(path)
            events.publish(FILE_EVENT_TYPES.taskDeleted, {id, path: shown, module: file.module})
            return
          }
          const info = await readTaskInfo(context.meshPath(), path, file.nameId)
          if (info.problem) debug.log({lvl: 'warn', tag: 'watch', msg: `${path}: ${info.problem}; reported by its file name`})
          taskIds.set(path, info.id)
          const data: Record<string, unknown> = {id: info.id, path: shown, module: file.module}
          if (info.status !== undefined) data.status = info.status
          events.publish(change === 'added' ? FILE_EVENT_TYPES.taskCreated : FILE_EVENT_TYPES.taskUpdated, data)
          return
        }
        case 'timeline': {
          if (!stats) {
            deps.timeline.forget(path)
            return
          }
          const read = await deps.timeline.readAppended(path, absolute, stats)
          if (read.skipped > 0) debug.log({lvl: 'warn', tag: 'watch', msg: `${path}: ${read.skipped} line(s) that are not JSON objects skipped`})
          // The daemon's own lines (chat turns) were published as their own events when written.
          const appended = read.events.filter((event) => event.src !== DAEMON_TIMELINE_SRC)
          for (let i = 0; i < appended.length; i += TIMELINE_EVENTS_PER_MESSAGE) {
            events.publish(FILE_EVENT_TYPES.timeline, {file: shown, events: appended.slice(i, i + TIMELINE_EVENTS_PER_MESSAGE)})
          }
          return
        }
        default:
          events.publish(FILE_EVENT_TYPES.file, {path: shown, change})
      }
    },
  }
}
