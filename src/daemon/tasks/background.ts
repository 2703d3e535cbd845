/**
 * The tasks area's background work (docs/daemon.md, Task bookkeeping):
 * - every commit made for a task — the daemon's own (`git.committed`, its
 *   `tasks`) and a member's (`commit.created`, its `task`) — is recorded in
 *   that task's `commit_shas` right after it is made;
 * - with cluster.yaml `tasks.archive_after_days`, done tasks are archived
 *   at start and then every hour.
 */
import {BY_DAEMON} from '../../protocol/tasks.js'
import type {DaemonContext} from '../context.js'
import {archiveTasks, recordCommit} from './authoring.js'
import {ARCHIVE_INTERVAL_MS, ARCHIVE_TAG, DAY_MS} from './constants.js'

/** The events that carry a commit made for tasks, and the task ids each names. */
function tasksOfCommit(type: string, data: unknown): {sha: string; tasks: string[]} | null {
  const record = (data ?? {}) as Record<string, unknown>
  if (typeof record.sha !== 'string') return null
  if (type === 'git.committed' && Array.isArray(record.tasks)) return {sha: record.sha, tasks: record.tasks.filter((id): id is string => typeof id === 'string')}
  if (type === 'commit.created' && typeof record.task === 'string') return {sha: record.sha, tasks: [record.task]}
  return null
}

export interface TaskBackground {
  start(): void
  close(): Promise<void>
}

export function taskBackground(context: DaemonContext): TaskBackground {
  const pending = new Set<Promise<void>>()
  let unsubscribe: (() => void) | undefined
  let interval: NodeJS.Timeout | undefined
  let closed = false

  const track = (work: Promise<void>) => {
    pending.add(work)
    void work.finally(() => pending.delete(work))
  }

  const archivePass = async () => {
    const days = context.settings().tasks.archiveAfterDays
    if (closed || days === null) return
    try {
      await archiveTasks(context, days * DAY_MS, BY_DAEMON)
    } catch (error) {
      context.debug.log({lvl: 'warn', tag: ARCHIVE_TAG, msg: `the archive pass failed: ${error instanceof Error ? error.message : String(error)}`})
    }
  }

  return {
    start() {
      unsubscribe = context.events.subscribe((event) => {
        const commit = tasksOfCommit(event.type, event.data)
        if (!commit || closed) return
        for (const task of commit.tasks) track(recordCommit(context, task, commit.sha))
      })
      track(archivePass())
      interval = setInterval(() => track(archivePass()), ARCHIVE_INTERVAL_MS)
      interval.unref()
    },
    async close() {
      closed = true
      clearInterval(interval)
      unsubscribe?.()
      // A record under way finishes (its write is one atomic rename), so git's last flush can commit it.
      await Promise.allSettled([...pending])
    },
  }
}
