/**
 * Archiving done tasks (spec: Folder layout — `modules/<id>/log/<YYYY-MM>/`;
 * States and transitions — "file may later move to modules/<id>/log/<YYYY-MM>/").
 * A done task whose completion is at least `olderThanMs` old moves, bytes
 * unchanged, to the folder of the month it was completed in (UTC). Its id
 * stays reserved: `reserveTaskId` counts archived files (DECISIONS: Task ids).
 * docs/standard-authoring.md, `mesh task archive`.
 */
import {access, rm} from 'node:fs/promises'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {invalid} from '../../lib/errors.js'
import {MESH_DIR} from '../constants.js'
import {ARCHIVE_DIR, MODULES_DIR} from './constants.js'
import {meshPath} from '../project/project-root.js'
import {readTaskBytes, scanTasks} from './task-files.js'

const DAY_MS = 24 * 60 * 60 * 1000

export interface ArchiveOptions {
  /** Done tasks completed at least this long before `now` are archived (0: every done task). */
  olderThanMs: number
  now?: Date
  /**
   * Moves one task file (absolute paths): writes `bytes` at `to`, then removes
   * `from`. Default: an atomic write and a removal; the daemon passes its
   * snapshotting writer.
   */
  move?: (from: string, to: string, bytes: Buffer) => Promise<void>
}

export interface ArchivedTask {
  id: string
  module: string
  /** Where it was, from the repository root. */
  from: string
  /** Where it is now, from the repository root: `.mesh/modules/<m>/log/<YYYY-MM>/<file>`. */
  to: string
  /** When it was completed: `completed_at`, else its `updated` date. */
  completed_at: string
}

export interface ArchiveReport {
  archived: ArchivedTask[]
  /** Done tasks old enough that were left where they are, and why. */
  skipped: Array<{id: string; path: string; reason: string}>
}

/** `30d`, `12h`, `0`: a duration in days (the default unit) or hours, as milliseconds; else 400 `usage_bad_duration`. */
export function parseAge(text: string, field = 'older-than'): number {
  const match = /^(\d{1,5})(d|h)?$/.exec(text.trim())
  if (!match) throw invalid('usage_bad_duration', `--${field} takes a number of days (30d, or 30) or hours (12h); got "${text.slice(0, 40)}"`, {field})
  return Number(match[1]) * (match[2] === 'h' ? DAY_MS / 24 : DAY_MS)
}

/** When a done task was completed: `completed_at` (v26), else its `updated` date; null when neither is a time. */
export function completedAt(data: Record<string, unknown>): Date | null {
  for (const value of [data.completed_at, data.updated]) {
    const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN
    if (Number.isFinite(time)) return new Date(time)
  }
  return null
}

const exists = (path: string) => access(path).then(() => true, () => false)

async function moveHere(from: string, to: string, bytes: Buffer): Promise<void> {
  await writeFileAtomic(to, bytes)
  await rm(from, {force: true})
}

/**
 * Moves every done task completed at least `olderThanMs` ago to
 * `modules/<module>/log/<YYYY-MM>/`, keeping its file name and bytes. A task
 * whose archive file name is taken, or whose completion time cannot be read,
 * is skipped (reported). Callers that share the project with other writers
 * run it under their task lock.
 */
export async function archiveDoneTasks(root: string, options: ArchiveOptions): Promise<ArchiveReport> {
  const now = options.now ?? new Date()
  const move = options.move ?? moveHere
  const report: ArchiveReport = {archived: [], skipped: []}
  for (const record of await scanTasks(root, {includeArchived: false})) {
    if (record.problem || record.data.status !== 'done') continue
    const completed = completedAt(record.data)
    if (completed === null) {
      report.skipped.push({id: record.id, path: record.relativePath, reason: 'neither completed_at nor updated is a date'})
      continue
    }
    if (now.getTime() - completed.getTime() < options.olderThanMs) continue
    const month = completed.toISOString().slice(0, 7)
    const name = record.path.split(/[\\/]/).pop()!
    const target = meshPath(root, MODULES_DIR, record.module, ARCHIVE_DIR, month, name)
    const to = [MESH_DIR, MODULES_DIR, record.module, ARCHIVE_DIR, month, name].join('/')
    if (await exists(target)) {
      report.skipped.push({id: record.id, path: record.relativePath, reason: `${to} exists already`})
      continue
    }
    await move(record.path, target, await readTaskBytes(root, record))
    report.archived.push({id: record.id, module: record.module, from: record.relativePath, to, completed_at: completed.toISOString().replace(/\.\d{3}Z$/, 'Z')})
  }
  return report
}
