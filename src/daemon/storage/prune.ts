/**
 * Pruning (spec Limits): snapshot day folders older than
 * `snapshots.retention_days` and uploads older than 30 days are deleted.
 * A snapshot day folder goes only once its whole day is past the retention,
 * so no snapshot younger than the retention is ever lost; uploads go by their
 * mtime. With `snapshots.enabled: false` no snapshot is deleted (the last
 * copies stay restorable); uploads are pruned either way. docs/daemon.md,
 * Storage and pruning. A linked `snapshots/` or `uploads/` is never walked
 * (issue 18): a committed link must not make the daemon delete files
 * wherever it points. Below them, links are neither followed nor removed.
 */
import type {Dirent, Stats} from 'node:fs'
import {lstat, readdir, rm, rmdir} from 'node:fs/promises'
import {join} from 'node:path'
import {listContainedFolder} from '../../lib/contained-files.js'
import {UPLOAD_RETENTION_DAYS} from '../constants.js'
import {SNAPSHOTS_DIR} from '../project-writer.js'

const DAY_MS = 24 * 60 * 60 * 1000
/** `snapshots/<YYYY-MM-DD>/`, the project writer's day folders; anything else there is left alone. */
const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/
export const UPLOADS_DIR = 'uploads'

export interface PruneOptions {
  meshDir: string
  now: number
  snapshots: {enabled: boolean; retentionDays: number}
  uploadRetentionDays?: number
}

export interface PruneReport {
  snapshot_days_removed: string[]
  /** Why snapshots were not looked at (`disabled`), if so. */
  snapshots_skipped?: 'disabled'
  uploads_removed: number
  bytes_freed: number
  /** What could not be pruned this time (error codes), if anything. */
  errors?: string[]
}

const missing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, {withFileTypes: true})
  } catch (error) {
    if (missing(error)) return []
    throw error
  }
}

/** Bytes of the regular files under `dir`, links not followed (what deleting it frees). */
async function sizeOf(dir: string): Promise<number> {
  let bytes = 0
  for (const entry of await entriesOf(dir)) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) bytes += await sizeOf(path)
    else if (entry.isFile()) bytes += (await lstat(path).catch(() => null))?.size ?? 0
  }
  return bytes
}

/** The day folders whose whole day ended at least `retentionDays` before `now`. */
export function expiredDays(days: string[], now: number, retentionDays: number): string[] {
  const cutoff = now - retentionDays * DAY_MS
  return days.filter((day) => {
    const start = Date.parse(`${day}T00:00:00Z`)
    // A name that is no real date (2026-13-40) is not ours to delete.
    return !Number.isNaN(start) && new Date(start).toISOString().startsWith(day) && start + DAY_MS <= cutoff
  })
}

async function pruneSnapshots(options: PruneOptions, report: PruneReport): Promise<void> {
  const dir = join(options.meshDir, SNAPSHOTS_DIR)
  // Real folders only: a linked snapshots/ is refused (an error of the pass); a link named like a day is not followed, nor removed.
  const days = (await listContainedFolder(options.meshDir, SNAPSHOTS_DIR)).filter((entry) => entry.isDirectory() && DAY_FOLDER.test(entry.name)).map((entry) => entry.name)
  for (const day of expiredDays(days, options.now, options.snapshots.retentionDays).sort()) {
    const path = join(dir, day)
    report.bytes_freed += await sizeOf(path)
    await rm(path, {recursive: true, force: true})
    report.snapshot_days_removed.push(day)
  }
}

/** Deletes old regular files under `dir`; returns whether `dir` is left empty. */
async function pruneUploadsIn(dir: string, cutoff: number, report: PruneReport): Promise<boolean> {
  const entries = await entriesOf(dir)
  let left = entries.length
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (await pruneUploadsIn(path, cutoff, report)) {
        // Empty now (or already): the folder goes too. One that fills up meanwhile stays.
        if (await rmdir(path).then(() => true, () => false)) left--
      }
    } else if (entry.isFile()) {
      const stats = await lstat(path).catch((): Stats | null => null)
      if (!stats) left--
      else if (stats.isFile() && stats.mtimeMs < cutoff) {
        await rm(path, {force: true})
        report.uploads_removed++
        report.bytes_freed += stats.size
        left--
      }
    }
  }
  return left === 0
}

const reason = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message ?? String(error)

/** One pruning pass. Never throws: a part that fails (a folder it may not delete) is named in `errors` and the other part still runs. */
export async function pruneStorage(options: PruneOptions): Promise<PruneReport> {
  const report: PruneReport = {snapshot_days_removed: [], uploads_removed: 0, bytes_freed: 0}
  if (options.snapshots.enabled) await pruneSnapshots(options, report).catch((error) => (report.errors ??= []).push(`snapshots: ${reason(error)}`))
  else report.snapshots_skipped = 'disabled'
  const uploadDays = options.uploadRetentionDays ?? UPLOAD_RETENTION_DAYS
  const uploads = async () => {
    // A linked uploads/ is refused before anything under it is looked at.
    await listContainedFolder(options.meshDir, UPLOADS_DIR)
    await pruneUploadsIn(join(options.meshDir, UPLOADS_DIR), options.now - uploadDays * DAY_MS, report)
  }
  await uploads().catch((error) => (report.errors ??= []).push(`uploads: ${reason(error)}`))
  return report
}
