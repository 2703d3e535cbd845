/**
 * Restore: brings back the bytes a snapshot kept, through the project writer,
 * so the bytes it replaces are snapshotted first (when `snapshots.enabled`)
 * and a restore can itself be undone. The same code serves
 * `POST /snapshots/restore` and `mesh daemon restore` without a daemon.
 * docs/daemon.md, Restore.
 */
import {lstat} from 'node:fs/promises'
import {conflict} from '../../lib/errors.js'
import type {ProjectWriter, SnapshotRecord} from '../project-writer.js'
import {pickSnapshot, readSnapshot, type SnapshotChoice} from './catalog.js'
import {assertRestorable} from './paths.js'

/** `reason` of the snapshot a restore keeps of the bytes it replaces. */
export const RESTORE_REASON = 'restore'

export interface RestoreRequest extends SnapshotChoice {
  meshDir: string
  writer: ProjectWriter
  /** Relative to `.mesh/` (see toMeshRelative). */
  path: string
}

export interface RestoreResult {
  path: string
  /** The snapshot whose bytes are now the file's. */
  restored: SnapshotRecord
  /** The snapshot of the bytes the restore replaced: restoring it undoes the restore. Null when the file did not exist or snapshots are off. */
  undo: SnapshotRecord | null
  bytes: number
}

export async function restoreSnapshot(request: RestoreRequest): Promise<RestoreResult> {
  assertRestorable(request.path)
  const target = request.writer.resolve(request.path)
  const record = await pickSnapshot(request.meshDir, request.path, {at: request.at, before: request.before})
  const bytes = await readSnapshot(request.meshDir, record)
  const current = await lstat(target).catch(() => null)
  if (current?.isDirectory()) throw conflict('path_is_folder', `.mesh/${request.path} is a folder now; move it away to restore the file`)
  const written = await request.writer.write(request.path, bytes, {reason: RESTORE_REASON})
  return {path: written.path, restored: record, undo: written.snapshot, bytes: bytes.length}
}
