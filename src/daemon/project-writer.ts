/**
 * The one way the daemon rewrites a file of the project: the path must stay
 * inside `.mesh/` (no `..`, no absolute path, no symlink out), the previous
 * bytes are kept as a snapshot first (v19, when `snapshots.enabled`), the new
 * bytes land atomically (temp + rename), and listeners hear of the write
 * (git auto-commit, events). docs/daemon.md, Snapshots; docs/daemon-api.md.
 */
import {createHash} from 'node:crypto'
import {appendFile, mkdir, readFile, realpath, rm} from 'node:fs/promises'
import {dirname, isAbsolute, join, relative, resolve, sep} from 'node:path'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {createFileExclusive} from '../lib/exclusive-create.js'
import {invalid} from '../lib/errors.js'
import {MESH_DIR} from '../protocol/daemon.js'
import {assertOperatorTextKept} from './operator-guard.js'

export const SNAPSHOTS_DIR = 'snapshots'
/** Folders whose files are never copied into snapshots: secrets must not outlive their rotation there. */
const NOT_SNAPSHOTTED = ['credentials/', '.runtime/', 'snapshots/']
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
}

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
}

/** `2026-11-24T04:45:01.123Z` → `2026-11-24` and `044501.123Z` (a folder name without colons). */
const stampOf = (iso: string) => ({day: iso.slice(0, 10), time: iso.slice(11).replace(/:/g, '')})

export function createProjectWriter(options: ProjectWriterOptions): ProjectWriter {
  const meshDir = join(options.root, MESH_DIR)
  const listeners = new Set<(written: WrittenFile) => void>()

  const resolvePath = (relativePath: string) => {
    if (typeof relativePath !== 'string' || relativePath === '' || relativePath.includes('\0') || isAbsolute(relativePath)) {
      throw invalid('invalid_path', 'A project path is relative to .mesh/ and not empty')
    }
    const absolute = resolve(meshDir, relativePath)
    const inside = relative(meshDir, absolute)
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw invalid('invalid_path', `${relativePath} is outside .mesh/`)
    return absolute
  }

  /** The real folder must also be inside `.mesh/`: a symlinked folder must not carry a write outside it. */
  const assertRealInside = async (absolute: string) => {
    const realMesh = await realpath(meshDir)
    let dir = dirname(absolute)
    for (;;) {
      try {
        const real = await realpath(dir)
        if (real !== realMesh && !real.startsWith(realMesh + sep)) throw invalid('invalid_path', `${relative(meshDir, absolute)} resolves outside .mesh/`)
        return
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        dir = dirname(dir)
      }
    }
  }

  const keepSnapshot = async (relativePath: string, absolute: string, reason: string): Promise<SnapshotRecord | null> => {
    const inside = relativePath.split(sep).join('/')
    if (!options.snapshotsEnabled() || NOT_SNAPSHOTTED.some((folder) => inside.startsWith(folder))) return null
    const previous = await readFile(absolute).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)))
    if (previous === null) return null
    const ts = new Date(options.clock()).toISOString()
    const {day, time} = stampOf(ts)
    // Two rewrites of one file in the same millisecond get folders `<time>`, `<time>-1`, … so neither copy is lost.
    let snapshot = join(SNAPSHOTS_DIR, day, time, relativePath).split(sep).join('/')
    for (let n = 1; !(await createFileExclusive(join(meshDir, snapshot), previous)); n++) {
      snapshot = join(SNAPSHOTS_DIR, day, `${time}-${n}`, relativePath).split(sep).join('/')
    }
    const record: SnapshotRecord = {ts, path: relativePath.split(sep).join('/'), snapshot, bytes: previous.length, sha256: createHash('sha256').update(previous).digest('hex'), reason}
    await mkdir(join(meshDir, SNAPSHOTS_DIR, day), {recursive: true})
    await appendFile(join(meshDir, SNAPSHOTS_DIR, day, SNAPSHOT_INDEX), JSON.stringify(record) + '\n')
    return record
  }

  return {
    resolve: resolvePath,
    async write(relativePath, data, writeOptions) {
      const absolute = resolvePath(relativePath)
      await assertRealInside(absolute)
      const inside = relative(meshDir, absolute).split(sep).join('/')
      if (inside === 'public/AGENT_INSTRUCTIONS.md' || inside === 'public/RESOURCES.md') {
        const previous = await readFile(absolute, 'utf8').catch(() => null)
        assertOperatorTextKept(inside, previous, typeof data === 'string' ? data : Buffer.from(data).toString('utf8'))
      }
      const snapshot = await keepSnapshot(relative(meshDir, absolute), absolute, writeOptions.reason)
      await writeFileAtomic(absolute, data)
      const written: WrittenFile = {path: relative(meshDir, absolute).split(sep).join('/'), absolutePath: absolute, snapshot, reason: writeOptions.reason}
      for (const listener of listeners) listener(written)
      return written
    },
    async remove(relativePath, removeOptions) {
      const absolute = resolvePath(relativePath)
      await assertRealInside(absolute)
      const snapshot = await keepSnapshot(relative(meshDir, absolute), absolute, removeOptions.reason)
      await rm(absolute, {force: true})
      const removed: WrittenFile = {path: relative(meshDir, absolute).split(sep).join('/'), absolutePath: absolute, snapshot, reason: removeOptions.reason, removed: true}
      for (const listener of listeners) listener(removed)
      return removed
    },
    onWrite(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
