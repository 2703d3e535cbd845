/**
 * The one way the daemon rewrites a file of the project: the path must stay
 * inside `.mesh/` (no `..`, no absolute path, no folder on the way that is a
 * symbolic link), the previous bytes are kept as a snapshot first (v19, when
 * `snapshots.enabled`), the new bytes land atomically (temp + rename), and
 * listeners hear of the write (git auto-commit, events).
 *
 * Links (issue 18): the previous bytes are read only from a regular file —
 * a link at the target is never read through (its target's bytes would
 * land in a snapshot, and a restore would write them back into `.mesh/`);
 * the rename replaces the link itself and no snapshot is kept of it. The
 * snapshot's folders and the day's index go through the same checks, so a
 * linked `snapshots/`, day folder or `index.jsonl` is refused and nothing is
 * created or appended outside `.mesh/`. docs/daemon.md, Snapshots; Files the daemon reads.
 */
import {createHash} from 'node:crypto'
import {rm} from 'node:fs/promises'
import {dirname, isAbsolute, join, relative, resolve, sep} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {appendContainedFile, containedEntryExists, createContainedFileExclusive, ensureContainedFolder, isPathRefused, readContainedFile, readContainedText} from '../lib/contained-files.js'
import {invalid, type MeshError} from '../lib/errors.js'
import {MESH_DIR} from '../protocol/daemon.js'
import {GENERATED_FILES} from './constants.js'
import {assertOperatorTextKept} from './operator-guard.js'

export const SNAPSHOTS_DIR = 'snapshots'
/** Folders whose files are never copied into snapshots: secrets must not outlive their rotation there. */
const NOT_SNAPSHOTTED = ['credentials/', '.runtime/', 'snapshots/']
/**
 * Generated files (spec Folder layout: "generated, never hand-edit"; issue 20):
 * rebuilt from the committed files after every change, so a copy of each
 * version would fill `snapshots/` with one per task move and a restore would
 * be overwritten by the next rebuild. `mesh roadmap build` makes them again.
 */
const keepsNoSnapshot = (inside: string) => NOT_SNAPSHOTTED.some((folder) => inside.startsWith(folder)) || GENERATED_FILES.includes(inside)
export const SNAPSHOT_INDEX = 'index.jsonl'

/** One line of `.mesh/snapshots/<YYYY-MM-DD>/index.jsonl`: which file was kept, where, and why. */
export interface SnapshotRecord {
  /** When the rewrite happened (ISO-8601 UTC with ms). */
  ts: string
  /** The file, relative to `.mesh/`. */
  path: string
  /** The kept copy, relative to `.mesh/`. */
  snapshot: string
  bytes: number
  sha256: string
  /** What rewrote the file, e.g. `links.patch`, `task.transition`, `restore`. */
  reason: string
}

export interface WriteOptions {
  /** Recorded with the snapshot and passed to listeners. */
  reason: string
  /** File mode of the new bytes (default 0644); secrets under `credentials/` are 0600. */
  mode?: number
}

/**
 * The one file outside `.mesh/` the writer rewrites: the bootstrap file
 * `mesh.json` at the repository root (spec Bootstrap file), which
 * `mesh cluster link` fills in (issue 23). Named relative to `.mesh/`; its
 * previous bytes are kept under `snapshots/<day>/<time>/_root/mesh.json`.
 */
export const BOOTSTRAP_PATH = '../mesh.json'
const ROOT_SNAPSHOT_FOLDER = '_root'

export interface WrittenFile {
  /** Relative to `.mesh/`. */
  path: string
  absolutePath: string
  snapshot: SnapshotRecord | null
  reason: string
  /** The file was removed (ProjectWriter.remove), not written. */
  removed?: true
}

export interface ProjectWriter {
  /** Resolves a `.mesh/`-relative path, refusing anything that leaves `.mesh/` (400 `invalid_path`). */
  resolve(relativePath: string): string
  write(relativePath: string, data: string | Uint8Array, options: WriteOptions): Promise<WrittenFile>
  /** Removes a file of `.mesh/` (snapshot of its bytes first); `snapshot` is null when there was no file. */
  remove(relativePath: string, options: WriteOptions): Promise<WrittenFile>
  onWrite(listener: (written: WrittenFile) => void): () => void
}

export interface ProjectWriterOptions {
  root: string
  clock: () => number
  /** Read at each write, so a change to cluster.yaml applies at once. */
  snapshotsEnabled: () => boolean
  /** Told when a target that is not a regular file (a link) is replaced without a snapshot (the debug stream). */
  onRefused?: (error: MeshError) => void
}

/** `2026-11-24T04:45:01.123Z` → `2026-11-24` and `044501.123Z` (a folder name without colons). */
const stampOf = (iso: string) => ({day: iso.slice(0, 10), time: iso.slice(11).replace(/:/g, '')})

export function createProjectWriter(options: ProjectWriterOptions): ProjectWriter {
  const meshDir = join(options.root, MESH_DIR)
  const listeners = new Set<(written: WrittenFile) => void>()

  const resolvePath = (relativePath: string) => {
    if (relativePath === BOOTSTRAP_PATH) return join(options.root, 'mesh.json')
    if (typeof relativePath !== 'string' || relativePath === '' || relativePath.includes('\0') || isAbsolute(relativePath)) {
      throw invalid('invalid_path', 'A project path is relative to .mesh/ and not empty')
    }
    const absolute = resolve(meshDir, relativePath)
    const inside = relative(meshDir, absolute)
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw invalid('invalid_path', `${relativePath} is outside .mesh/`)
    return absolute
  }

  /** A folder on the way that is a link (or a file) is 400 `invalid_path`: a write must not be carried outside `.mesh/`. */
  const outsideOf = (relativePath: string) => (error: unknown): never => {
    if (isPathRefused(error)) throw invalid('invalid_path', `${relativePath} resolves outside .mesh/: ${error.message}`)
    throw error
  }

  /** The previous bytes, only from a regular file: a link (or a FIFO) at the target is not read, and keeps no snapshot. */
  const previousBytes = async (inside: string): Promise<Buffer | null> => {
    try {
      return inside === BOOTSTRAP_PATH ? await readContainedFile(options.root, 'mesh.json') : await readContainedFile(meshDir, inside)
    } catch (error) {
      if (!isPathRefused(error)) throw error
      options.onRefused?.(error)
      return null
    }
  }

  const keepSnapshot = async (inside: string, reason: string): Promise<SnapshotRecord | null> => {
    if (!options.snapshotsEnabled() || keepsNoSnapshot(inside)) return null
    const previous = await previousBytes(inside)
    if (previous === null) return null
    const ts = new Date(options.clock()).toISOString()
    const {day, time} = stampOf(ts)
    // Two rewrites of one file in the same millisecond get folders `<time>`, `<time>-1`, … so neither copy is lost.
    // The copy and the index are written under the same checks as the target (a linked folder on the way is refused).
    const kept = inside === BOOTSTRAP_PATH ? `${ROOT_SNAPSHOT_FOLDER}/mesh.json` : inside
    let snapshot = [SNAPSHOTS_DIR, day, time, kept].join('/')
    for (let n = 1; !(await createContainedFileExclusive(meshDir, snapshot, previous)); n++) {
      snapshot = [SNAPSHOTS_DIR, day, `${time}-${n}`, kept].join('/')
    }
    const record: SnapshotRecord = {ts, path: inside, snapshot, bytes: previous.length, sha256: createHash('sha256').update(previous).digest('hex'), reason}
    await appendContainedFile(meshDir, [SNAPSHOTS_DIR, day, SNAPSHOT_INDEX].join('/'), JSON.stringify(record) + '\n')
    return record
  }

  return {
    resolve: resolvePath,
    async write(relativePath, data, writeOptions) {
      const absolute = resolvePath(relativePath)
      const inside = relative(meshDir, absolute).split(sep).join('/')
      if (inside !== BOOTSTRAP_PATH) await ensureContainedFolder(meshDir, dirname(inside)).catch(outsideOf(relativePath))
      if (inside === 'public/AGENT_INSTRUCTIONS.md' || inside === 'public/RESOURCES.md') {
        const previous = await readContainedText(meshDir, inside).catch(() => null)
        assertOperatorTextKept(inside, previous, typeof data === 'string' ? data : Buffer.from(data).toString('utf8'))
      }
      const snapshot = await keepSnapshot(inside, writeOptions.reason)
      // The rename replaces a link standing at the name; it never writes through one.
      await writeFileAtomic(absolute, data, writeOptions.mode === undefined ? {} : {mode: writeOptions.mode})
      const written: WrittenFile = {path: inside, absolutePath: absolute, snapshot, reason: writeOptions.reason}
      for (const listener of listeners) listener(written)
      return written
    },
    async remove(relativePath, removeOptions) {
      const absolute = resolvePath(relativePath)
      const inside = relative(meshDir, absolute).split(sep).join('/')
      await containedEntryExists(meshDir, inside).catch(outsideOf(relativePath))
      const snapshot = await keepSnapshot(inside, removeOptions.reason)
      // rm removes a link itself, never its target.
      await rm(absolute, {force: true})
      const removed: WrittenFile = {path: inside, absolutePath: absolute, snapshot, reason: removeOptions.reason, removed: true}
      for (const listener of listeners) listener(removed)
      return removed
    },
    onWrite(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
