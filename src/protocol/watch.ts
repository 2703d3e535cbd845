/**
 * What the daemon's file watcher announces on `/events` when a file under
 * `.mesh/` changes, whoever changed it (docs/daemon-api.md, Events from
 * files). Every `path` and `file` is relative to the repository root (it
 * starts with `.mesh/`). Payloads carry ids and paths, never file contents,
 * except the parsed timeline lines. Tasks' payloads are in tasks.ts. Nothing
 * here imports anything outside src/protocol/.
 */
import {TASK_CREATED_EVENT, TASK_DELETED_EVENT, TASK_UPDATED_EVENT} from './tasks.js'

export type FileChange = 'added' | 'changed' | 'removed'

/** The event types the watcher publishes. */
export const FILE_EVENT_TYPES = {
  workflow: 'workflows.updated',
  workflowRun: 'workflows.run.updated',
  protocol: 'protocols.updated',
  protocolRun: 'protocols.run.updated',
  links: 'links.updated',
  cluster: 'cluster.updated',
  taskCreated: TASK_CREATED_EVENT,
  taskUpdated: TASK_UPDATED_EVENT,
  taskDeleted: TASK_DELETED_EVENT,
  timeline: 'timeline.appended',
  file: 'file.changed',
} as const

/** `workflows.updated`, `workflows.run.updated`, `protocols.updated`, `protocols.run.updated`: `id` is the workflow's or protocol's (a run log's too). */
export interface RunbookChangedData {
  id: string
  path: string
  change: FileChange
}

/** `links.updated`: `module` null and `by: "file"` from the watcher; the daemon's own rewrites name the module, `by: "daemon"`. */
export interface LinksUpdatedData {
  module: string | null
  by: 'file' | 'daemon'
}

/** `timeline.appended`: the lines appended since the last event, parsed, at most 100 a message. */
export interface TimelineAppendedData {
  file: string
  events: Array<Record<string, unknown>>
}

/** `file.changed`: any other file that is not ignored. */
export interface FileChangedData {
  path: string
  change: FileChange
}
