/**
 * The daemon's own writes: the area that rewrites a file through the project
 * writer announces it itself (`links.updated` with `by: 'daemon'`,
 * `task.updated` with `from`/`to`/`by`), so the watcher must not echo it. Each
 * write is remembered by the file's inode, size and mtime right after it lands,
 * and the watcher skips a change whose file is exactly that. A hand edit after
 * it has another inode or mtime and is reported. A restore from a snapshot is
 * the exception: its route announces `snapshot.restored`, not the file's own
 * event, so the watcher reports the file (ECHOED_REASONS). docs/daemon-api.md,
 * Events from files.
 */
import type {Stats} from 'node:fs'
import {lstat} from 'node:fs/promises'
import type {ProjectWriter} from '../project-writer.js'
import {OWN_WRITE_TTL_MS} from './constants.js'

interface Signature {
  ino: number
  size: number
  mtimeMs: number
}

interface OwnWrite {
  at: number
  signature: Promise<Signature | null>
  /** A removal through ProjectWriter.remove: the file's absence is the echo. */
  removed?: boolean
}

/** Writes of one path remembered at most (the latest): a burst of rewrites is matched by its last. */
const OWN_WRITES_PER_PATH = 16

const signatureOf = (stats: Stats): Signature => ({ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs})
const same = (a: Signature, b: Signature) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs

export interface OwnWrites {
  /** Whether the file as it is now (`stats`) is one the daemon wrote itself (within OWN_WRITE_TTL_MS). */
  isEcho(relativePath: string, stats: Stats): Promise<boolean>
  /** Whether the daemon itself removed this (now absent) file within OWN_WRITE_TTL_MS. */
  isRemovalEcho(relativePath: string): boolean
  /** Paths with writes remembered (for tests: it must not grow). */
  readonly size: number
  close(): void
}

export interface TrackOwnWritesOptions {
  /** Whether the watcher sees this path at all (`.mesh/`-relative, `/`-separated). */
  watched: (relativePath: string) => boolean
  /** Writes with these reasons are not remembered: the watcher reports them like any change. */
  echoedReasons?: readonly string[]
  clock?: () => number
}

/** Remembers the writer's writes of watched paths. */
export function trackOwnWrites(writer: ProjectWriter, options: TrackOwnWritesOptions): OwnWrites {
  const clock = options.clock ?? Date.now
  const writes = new Map<string, OwnWrite[]>()
  const fresh = (list: OwnWrite[], now: number) => list.filter((write) => now - write.at < OWN_WRITE_TTL_MS)
  /** Drops writes whose echo never came, so the map holds only recent paths. */
  const prune = (now: number) => {
    for (const [path, list] of writes) {
      const kept = fresh(list, now)
      if (kept.length === 0) writes.delete(path)
      else if (kept.length !== list.length) writes.set(path, kept)
    }
  }
  const stop = writer.onWrite((written) => {
    if (!options.watched(written.path) || options.echoedReasons?.includes(written.reason)) return
    const now = clock()
    prune(now)
    // Listeners run right after the rename, before the watcher can hear of it: the promise is in place in time.
    const write: OwnWrite = written.removed ? {at: now, signature: Promise.resolve(null), removed: true} : {at: now, signature: lstat(written.absolutePath).then(signatureOf, () => null)}
    writes.set(written.path, [...(writes.get(written.path) ?? []), write].slice(-OWN_WRITES_PER_PATH))
  })
  return {
    async isEcho(relativePath, stats) {
      const list = writes.get(relativePath)
      if (!list) return false
      const now = signatureOf(stats)
      for (const write of list) {
        const signature = await write.signature
        // Kept until it expires: one write may reach the watcher as more than one burst.
        if (signature && same(signature, now)) return true
      }
      return false
    },
    isRemovalEcho(relativePath) {
      const latest = fresh(writes.get(relativePath) ?? [], clock()).at(-1)
      return latest?.removed === true
    },
    get size() {
      return writes.size
    },
    close() {
      stop()
      writes.clear()
    },
  }
}
