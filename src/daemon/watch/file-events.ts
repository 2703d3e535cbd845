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
import {BY_FILE, TASK_ARCHIVED_EVENT, TASK_UPDATED_EVENT, taskUpdatedData, type TaskCreatedData, type TaskDeletedData} from '../../protocol/tasks.js'
import {FILE_EVENT_TYPES, type FileChange, type FileChangedData, type LinksUpdatedData, type RunbookChangedData, type TimelineAppendedData} from '../../protocol/watch.js'
import {isDispatchable, scanTasks} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import {classifyPath} from './classify.js'
import {TIMELINE_EVENTS_PER_MESSAGE} from './constants.js'
import type {SettledBurst} from './debounce.js'
import type {OwnWrites} from './own-writes.js'
import {readTaskInfo} from './task-info.js'
import type {TimelineReader} from './timeline-reader.js'
import {DAEMON_TIMELINE_SRC} from '../chat/constants.js'

export interface FileEvents {
  /** Reads the status of every active task, so the first change of a file after start knows its `from`. */
  seed(): Promise<void>
  /** A file found by the watch's first scan of `.mesh/`: consumers read it at start, so it counts as announced. */
  noteExisting(path: string, stats?: Stats): void
  handle(burst: SettledBurst): Promise<void>
  close(): void
}

export function createFileEvents(context: DaemonContext, deps: {ownWrites: OwnWrites; timeline: TimelineReader}): FileEvents {
  const {events, debug} = context
  /**
   * The files consumers have heard of: found at start, announced by the
   * watcher (`added`, `changed`) or written and announced by an area. Only
   * these can be `removed`; a file not in it that exists is `added`.
   */
  const announced = new Set<string>()
  /**
   * The id and status last read from each task file: the id for the
   * `task.deleted` of a file that is gone, the status for the `from` of the
   * next `task.updated` (kept current through the daemon's own writes too).
   */
  const tasks = new Map<string, {id: string; status: string | null}>()
  const remember = async (path: string, nameId: string) => {
    const info = await readTaskInfo(context.meshPath(), path, nameId)
    // A file caught mid-write (an editor truncates, then writes) has no frontmatter for a moment: its last
    // known status stays the next change's `from`.
    tasks.set(path, {id: info.id, status: info.problem ? (tasks.get(path)?.status ?? null) : (info.status ?? null)})
    return info
  }
  /**
   * The daemon's own write, read back for its status, unless the file changed again while it was read: that
   * change is the next burst, and its `from` is the status the daemon wrote (set when it was announced).
   */
  const rememberOwnWrite = async (path: string, nameId: string, echoed: Stats) => {
    const info = await readTaskInfo(context.meshPath(), path, nameId)
    const now = await lstat(context.meshPath(...path.split('/'))).catch(() => null)
    if (!now || now.ino !== echoed.ino || now.size !== echoed.size || now.mtimeMs !== echoed.mtimeMs || info.problem) return
    tasks.set(path, {id: info.id, status: info.status ?? null})
  }
  const insideMesh = (shown: unknown) => (typeof shown === 'string' && shown.startsWith(`${MESH_DIR}/`) ? shown.slice(MESH_DIR.length + 1) : null)
  // The daemon's own task writes are announced as they land, before their echo (or a hand edit that follows
  // within the debounce window) reaches the watcher: the status they wrote is the next change's `from`.
  const unsubscribe = events.subscribe((event) => {
    const data = (event.data ?? {}) as Record<string, unknown>
    if (data.by === BY_FILE || typeof data.id !== 'string') return
    if (event.type === TASK_UPDATED_EVENT || event.type === FILE_EVENT_TYPES.taskCreated) {
      const path = insideMesh(data.path)
      const status = event.type === TASK_UPDATED_EVENT ? data.to : data.status
      if (path) tasks.set(path, {id: data.id, status: typeof status === 'string' ? status : null})
    } else if (event.type === TASK_ARCHIVED_EVENT) {
      const path = insideMesh(data.from_path)
      if (path) tasks.delete(path)
    }
  })

  return {
    close: unsubscribe,
    async seed() {
      for (const record of await scanTasks(context.root, {includeArchived: false})) {
        const status = record.data.status
        tasks.set(record.relativePath.slice(MESH_DIR.length + 1), {id: record.id, status: record.problem || typeof status !== 'string' ? null : status})
      }
    },
    noteExisting(path, stats) {
      // lstat stats from the scan: a link is not a file of the project (issue 18), never announced.
      if (stats?.isFile() !== false) announced.add(path)
    },
    async handle({path}) {
      const absolute = context.meshPath(...path.split('/'))
      // lstat: a link is not a file of the project (issue 18); it is never read, nor announced.
      const stats: Stats | null = await lstat(absolute).catch(() => null)
      if (stats && !stats.isFile()) return
      const known = announced.has(path)
      // Not announced and gone: a scratch file created and deleted (within one burst or across two) that
      // nobody heard of, so nobody is told it went.
      if (!stats && !known) return
      const change: FileChange = stats ? (known ? 'changed' : 'added') : 'removed'
      if (stats) announced.add(path)
      else announced.delete(path)
      const file = classifyPath(path)
      if (!stats && deps.ownWrites.isRemovalEcho(path)) {
        if (file.kind === 'task') tasks.delete(path)
        debug.log({lvl: 'debug', tag: 'watch.own-write', msg: `${path}: removed by the daemon, announced by the area that removed it`})
        return
      }
      // Timeline lines are appended, never written through the project writer: they are always read.
      if (stats && file.kind !== 'timeline' && (await deps.ownWrites.isEcho(path, stats))) {
        // The area that wrote it announced it: it is known from now on, its removal is reported.
        if (file.kind === 'task') await rememberOwnWrite(path, file.nameId, stats)
        debug.log({lvl: 'debug', tag: 'watch.own-write', msg: `${path}: written by the daemon, announced by the area that wrote it`})
        return
      }
      const shown = `${MESH_DIR}/${path}`
      switch (file.kind) {
        case 'workflow':
          events.publish(FILE_EVENT_TYPES.workflow, {id: file.id, path: shown, change} satisfies RunbookChangedData)
          return
        case 'workflow-run':
          events.publish(FILE_EVENT_TYPES.workflowRun, {id: file.id, path: shown, change} satisfies RunbookChangedData)
          return
        case 'protocol':
          events.publish(FILE_EVENT_TYPES.protocol, {id: file.id, path: shown, change} satisfies RunbookChangedData)
          return
        case 'protocol-run':
          events.publish(FILE_EVENT_TYPES.protocolRun, {id: file.id, path: shown, change} satisfies RunbookChangedData)
          return
        case 'links':
          events.publish(FILE_EVENT_TYPES.links, {module: null, by: BY_FILE} satisfies LinksUpdatedData)
          return
        case 'cluster':
          events.publish(FILE_EVENT_TYPES.cluster, {})
          return
        case 'task': {
          if (change === 'removed') {
            const id = tasks.get(path)?.id ?? file.nameId
            tasks.delete(path)
            events.publish(FILE_EVENT_TYPES.taskDeleted, {id, path: shown, module: file.module} satisfies TaskDeletedData)
            return
          }
          const before = tasks.get(path)
          const info = await remember(path, file.nameId)
          if (info.problem) debug.log({lvl: 'warn', tag: 'watch', msg: `${path}: ${info.problem}; reported by its file name`})
          if (change === 'added') {
            const status = info.status !== undefined ? {status: info.status} : {}
            events.publish(FILE_EVENT_TYPES.taskCreated, {id: info.id, path: shown, module: file.module, ...status, by: BY_FILE} satisfies TaskCreatedData)
            return
          }
          // The one task.updated shape (src/protocol/tasks.ts): a change on disk is `by: "file"`.
          const to = info.status ?? null
          events.publish(
            FILE_EVENT_TYPES.taskUpdated,
            taskUpdatedData({id: info.id, path: shown, module: file.module, from: before?.status ?? null, to, dispatchable: to !== null && isDispatchable(to), completed_at: info.completed_at ?? null, by: BY_FILE}),
          )
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
            events.publish(FILE_EVENT_TYPES.timeline, {file: shown, events: appended.slice(i, i + TIMELINE_EVENTS_PER_MESSAGE)} satisfies TimelineAppendedData)
          }
          return
        }
        default:
          events.publish(FILE_EVENT_TYPES.file, {path: shown, change} satisfies FileChangedData)
      }
    },
  }
}
