/**
 * An OS-level lock on a file, for writers in different processes (two
 * daemons, a daemon and a script) that rewrite the same project file: the
 * lock is a file created exclusively (hard link, EEXIST when taken) holding
 * `<pid> <nonce>`. A lock whose pid is dead, or that is older than any hold
 * can last, is taken over; a live one is waited for, at most `waitMs`.
 * docs/daemon.md, Links and versions.
 *
 * Taking over renames the stale file aside and checks it is the one that was
 * read, putting it back when another process had re-taken the lock between.
 * The lock is read without following a link (issue 18): a link at its name
 * is no lock, and is moved aside like a stale one.
 */
import {randomBytes} from 'node:crypto'
import {link, lstat, rename, rm} from 'node:fs/promises'
import {basename, dirname} from 'node:path'
import {performance} from 'node:perf_hooks'
import {setTimeout as sleep} from 'node:timers/promises'
import {isProcessAlive} from '../../lib/process-alive.js'
import {MeshError} from '../../lib/errors.js'
import {isPathRefused, readContainedText} from '../../lib/contained-files.js'
import {createFileExclusive} from '../../lib/exclusive-create.js'
import {createMutex, type Mutex} from '../../lib/mutex.js'

/** `.mesh/.runtime/links.lock`: deny-listed, never committed. Relative to `.mesh/`. */
export const LINKS_LOCK_FILE = '.runtime/links.lock'
/** How long a writer waits for another process's lock before 503 `links_locked` (our choice). */
export const LINKS_LOCK_WAIT_MS = 5_000
export const LINKS_LOCK_POLL_MS = 20
/** A hold is one read-modify-write of a small file: a lock older than this was left behind (our choice). */
export const LINKS_LOCK_STALE_MS = 30_000

export interface FileLockOptions {
  waitMs?: number
  pollMs?: number
  staleMs?: number
  /** The error when the wait runs out (default: 503 `file_locked`). */
  busy?: (owner: number) => MeshError
}

/** Nonces this process holds right now: a lock naming our pid with another nonce was left by an earlier process. */
const held = new Set<string>()

/**
 * Holders in one process take turns on a mutex per lock path before they touch
 * the file, so the file only ever arbitrates between processes. Without it, a
 * holder's release (read, then remove) could remove a lock another holder of
 * the same process had just taken over and re-created.
 */
const turns = new Map<string, Mutex>()
const turnOf = (path: string) => {
  let mutex = turns.get(path)
  if (!mutex) turns.set(path, (mutex = createMutex()))
  return mutex
}

const pidOf = (content: string) => Number(content.trim().split(/\s+/)[0])

/** A lock file's text; '' for a link or anything else that is not a regular file (no pid: stale). */
async function lockText(path: string): Promise<string | null> {
  return readContainedText(dirname(path), basename(path)).catch((error: unknown) => (isPathRefused(error) ? '' : Promise.reject(error)))
}

async function readLock(path: string): Promise<{content: string; ageMs: number} | null> {
  try {
    const [content, info] = await Promise.all([lockText(path), lstat(path)])
    return content === null ? null : {content, ageMs: Date.now() - info.mtimeMs}
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function isStale(content: string, ageMs: number, staleMs: number): boolean {
  const owner = pidOf(content)
  if (owner === process.pid) return !held.has(content)
  return !isProcessAlive(owner) || ageMs > staleMs
}

/** Removes the stale lock whose content was `seen`, unless someone replaced it meanwhile. */
async function takeOver(path: string, seen: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomBytes(6).toString('hex')}`
  try {
    await rename(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  try {
    if ((await lockText(aside)) !== seen) await link(aside, path).catch(() => {})
  } finally {
    await rm(aside, {force: true})
  }
}

async function release(path: string, mine: string): Promise<void> {
  held.delete(mine)
  const current = await lockText(path).catch(() => null)
  if (current === mine) await rm(path, {force: true})
}

/** Runs `work` while holding the lock file at `path` (absolute); see the file comment. */
export function withFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  return turnOf(path).run(() => holdFileLock(path, work, options))
}

async function holdFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions): Promise<T> {
  const waitMs = options.waitMs ?? LINKS_LOCK_WAIT_MS
  const pollMs = options.pollMs ?? LINKS_LOCK_POLL_MS
  const staleMs = options.staleMs ?? LINKS_LOCK_STALE_MS
  const mine = `${process.pid} ${randomBytes(8).toString('hex')}\n`
  // Real time, not the daemon's clock: tests freeze that one.
  const deadline = performance.now() + waitMs
  for (;;) {
    held.add(mine)
    // No fsync: a lock outlives no crash (its process is gone, so it is stale and taken over).
    if (await createFileExclusive(path, mine, {sync: false})) break
    held.delete(mine)
    const lock = await readLock(path)
    if (lock === null) continue
    if (isStale(lock.content, lock.ageMs, staleMs)) {
      await takeOver(path, lock.content)
      continue
    }
    const owner = pidOf(lock.content)
    if (performance.now() >= deadline) {
      throw options.busy?.(owner) ?? new MeshError('unavailable', 'file_locked', `${path} is locked by process ${owner}; try again`)
    }
    // A little jitter, so two waiting processes do not poll in step.
    await sleep(pollMs + Math.floor(Math.random() * pollMs))
  }
  try {
    return await work()
  } finally {
    await release(path, mine)
  }
}
