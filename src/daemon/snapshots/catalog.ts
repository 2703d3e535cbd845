/**
 * The snapshots of one file, read from the index lines the project writer
 * appends to `.mesh/snapshots/<YYYY-MM-DD>/index.jsonl` (docs/daemon.md,
 * Snapshots). A line that is torn or hand-edited, or whose kept copy is gone
 * or lies outside its day folder, is left out: only what can be restored is
 * listed. Nothing is read through a link (issue 18): a linked `snapshots/`,
 * day folder, index or kept copy counts as absent, so a restore never brings
 * bytes from outside `.mesh/` into it.
 */
import {createHash} from 'node:crypto'
import type {Dirent} from 'node:fs'
import {isContainedRegularFile, listContainedFolder, readContainedFile, readContainedText} from '../../lib/contained-files.js'
import {conflict, notFound} from '../../lib/errors.js'
import {SNAPSHOT_INDEX, SNAPSHOTS_DIR, type SnapshotRecord} from '../project-writer.js'

const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/
const SHA256 = /^[0-9a-f]{64}$/

const isRecord = (value: unknown): value is SnapshotRecord => {
  const r = value as SnapshotRecord
  return (
    !!r && typeof r === 'object' && typeof r.ts === 'string' && !Number.isNaN(Date.parse(r.ts)) && typeof r.path === 'string' && typeof r.snapshot === 'string' &&
    Number.isInteger(r.bytes) && r.bytes >= 0 && typeof r.sha256 === 'string' && SHA256.test(r.sha256) && typeof r.reason === 'string'
  )
}

/** The kept copy must be `snapshots/<day>/<time>/<path>` of the folder whose index names it (the writer's layout), without `..`. */
const keptInside = (record: SnapshotRecord, day: string) => {
  const parts = record.snapshot.split('/')
  return parts[0] === SNAPSHOTS_DIR && parts[1] === day && parts.slice(3).join('/') === record.path && !parts.some((part) => part === '' || part === '.' || part === '..')
}

/** The bytes of a record's kept copy: a regular file in real folders under its day folder, else null (a link is not followed). */
const keptBytes = (meshDir: string, record: SnapshotRecord): Promise<Buffer | null> => readContainedFile(meshDir, record.snapshot).catch(() => null)

async function daysOf(meshDir: string): Promise<string[]> {
  const entries = await listContainedFolder(meshDir, SNAPSHOTS_DIR).catch((): Dirent[] => [])
  return entries.filter((entry) => entry.isDirectory() && DAY_FOLDER.test(entry.name)).map((entry) => entry.name)
}

/** Every restorable snapshot of `path` (relative to `.mesh/`), newest first; of every file when `path` is null. */
export async function listSnapshots(meshDir: string, path: string | null): Promise<SnapshotRecord[]> {
  const found: SnapshotRecord[] = []
  for (const day of (await daysOf(meshDir)).sort()) {
    const text = (await readContainedText(meshDir, `${SNAPSHOTS_DIR}/${day}/${SNAPSHOT_INDEX}`).catch(() => null)) ?? ''
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      let record: unknown
      try {
        record = JSON.parse(line)
      } catch {
        continue
      }
      if (isRecord(record) && (path === null || record.path === path) && keptInside(record, day) && (await isContainedRegularFile(meshDir, record.snapshot))) {
        found.push({ts: new Date(Date.parse(record.ts)).toISOString(), path: record.path, snapshot: record.snapshot, bytes: record.bytes, sha256: record.sha256, reason: record.reason})
      }
    }
  }
  // Oldest first as read; the newest first out (a later line of the same ms stays ahead of an earlier one).
  return found.map((record, order) => ({record, order})).sort((a, b) => Date.parse(b.record.ts) - Date.parse(a.record.ts) || b.order - a.order).map((entry) => entry.record)
}

export interface SnapshotFile {
  path: string
  /** How many restorable snapshots it has. */
  snapshots: number
  /** When the latest was taken. */
  latest: string
}

/** The files that have restorable snapshots, the most recently rewritten first. */
export async function listSnapshotFiles(meshDir: string): Promise<SnapshotFile[]> {
  const files = new Map<string, SnapshotFile>()
  // Newest first: a file's first record is its latest.
  for (const record of await listSnapshots(meshDir, null)) {
    const file = files.get(record.path)
    if (file) file.snapshots++
    else files.set(record.path, {path: record.path, snapshots: 1, latest: record.ts})
  }
  return [...files.values()]
}

/**
 * Which bytes a restore brings back. `at`: the file as it was at that time,
 * i.e. the bytes the first rewrite after it replaced (its snapshot). `before`:
 * the bytes a rewrite at or before that time replaced (the latest such
 * snapshot). Neither: the latest snapshot (undo the last rewrite).
 */
export interface SnapshotChoice {
  /** Milliseconds since the epoch. */
  at?: number
  before?: number
}

/** The snapshot `choice` names, else 404 `snapshot_not_found` saying why. */
export async function pickSnapshot(meshDir: string, path: string, choice: SnapshotChoice = {}): Promise<SnapshotRecord> {
  if (choice.at !== undefined && choice.before !== undefined) throw new TypeError('pickSnapshot: at and before exclude each other')
  const all = await listSnapshots(meshDir, path)
  if (!all.length) throw notFound('snapshot_not_found', `No snapshot of ${path}`)
  if (choice.at !== undefined) {
    const at = choice.at
    // Newest first: the last one after `at` is the first rewrite after it.
    const picked = all.filter((record) => Date.parse(record.ts) > at).at(-1)
    if (!picked) {
      throw notFound('snapshot_not_found', `No rewrite of ${path} after ${new Date(at).toISOString()} kept a snapshot (the latest is of ${all[0].ts}): the daemon has not changed the file since; changes by hand are not kept`)
    }
    return picked
  }
  if (choice.before === undefined) return all[0]
  const before = choice.before
  const picked = all.find((record) => Date.parse(record.ts) <= before)
  if (!picked) throw notFound('snapshot_not_found', `No snapshot of ${path} at or before ${new Date(before).toISOString()} (the oldest is of ${all.at(-1)!.ts})`)
  return picked
}

/** The bytes a snapshot kept, checked against its recorded sha256 (409 `snapshot_corrupt` when they differ). */
export async function readSnapshot(meshDir: string, record: SnapshotRecord): Promise<Buffer> {
  const bytes = await keptBytes(meshDir, record)
  if (!bytes) throw notFound('snapshot_not_found', `The snapshot ${record.snapshot} is gone`)
  if (createHash('sha256').update(bytes).digest('hex') !== record.sha256) {
    throw conflict('snapshot_corrupt', `The snapshot ${record.snapshot} does not hold the bytes its index recorded (sha256 differs); it is not restored`)
  }
  return bytes
}
