/**
 * The message of a daemon commit (spec "Commit and agent conventions"):
 * `chore(<scope>): update <file> (<reason>) [<task-id>]`, a body naming each
 * file, and the trailers `Agent: daemon` and `Model: none`. No co-author
 * line: no model wrote the change (docs/daemon.md, Git).
 */
import {DAEMON_AGENT, DAEMON_COMMIT_TYPE, DAEMON_MODEL} from './constants.js'

export interface CommittedWrite {
  /** Relative to `.mesh/`, with `/`. */
  path: string
  /** The writer's reason, e.g. `task.transition`. */
  reason: string
}

/** A task file (`modules/<m>/tasks/<ID>-<slug>.md`, or archived under `log/<YYYY-MM>/`) names its task. */
const TASK_FILE = /^modules\/[^/]+\/(?:tasks|log\/[^/]+)\/([A-Z][A-Z0-9]{0,3}\d+)(?:-[^/]*)?\.md$/

export function taskIdOf(path: string): string | null {
  return TASK_FILE.exec(path)?.[1] ?? null
}

/**
 * The module or area a file belongs to: `modules/<id>/…` → the module id,
 * `public/links.yaml` → `links`, `public/cluster.yaml` → `cluster`, another
 * folder → its name (`team`, `workflows`, `roadmap`…), a file at the top → `mesh`.
 */
export function scopeOf(path: string): string {
  const parts = path.split('/')
  if (parts[0] === 'modules' && parts.length > 2) return parts[1]
  if (parts[0] === 'public' && parts.length === 2) {
    const stem = parts[1].replace(/\.(ya?ml|md|json)$/, '').toLowerCase()
    return stem === 'links' || stem === 'cluster' ? stem : 'public'
  }
  return parts.length > 1 ? parts[0] : 'mesh'
}

const one = <T>(values: T[]): T | null => (values.length > 0 && values.every((value) => value === values[0]) ? values[0] : null)

export function commitMessage(writes: CommittedWrite[]): {subject: string; message: string} {
  const scope = one(writes.map((write) => scopeOf(write.path))) ?? 'mesh'
  const taskIds = writes.map((write) => taskIdOf(write.path)).filter((id): id is string => id !== null)
  const taskId = taskIds.length === writes.length ? one(taskIds) : null
  const reasons = [...new Set(writes.map((write) => write.reason))].join(', ')
  const what = writes.length === 1 ? writes[0].path : `${writes.length} files`
  const subject = `${DAEMON_COMMIT_TYPE}(${scope}): update ${what} (${reasons})${taskId ? ` [${taskId}]` : ''}`
  const body = writes.map((write) => `- .mesh/${write.path} (${write.reason})`).join('\n')
  const message = `${subject}\n\nWritten by the mesh daemon:\n${body}\n\nAgent: ${DAEMON_AGENT}\nModel: ${DAEMON_MODEL}\n`
  return {subject, message}
}
