/**
 * The watch on `.mesh/`: chokidar reports adds, changes and unlinks of files
 * outside the ignored folders; each path's events are debounced; settled
 * bursts are handled one at a time, in the order they settled, so events come
 * out in the order the files changed. Errors go to the debug stream (tag
 * `watch`); nothing here may stop the daemon. docs/daemon.md, File watcher.
 */
import type {Stats} from 'node:fs'
import {relative, sep} from 'node:path'
import {watch, type FSWatcher} from 'chokidar'
import type {DaemonContext} from '../context.js'
import {taskIndex, type TaskIndexFollower} from '../tasks/task-index.js'
import {ECHOED_REASONS, WATCH_ATOMIC_MS, WATCH_DEBOUNCE_MS, WATCH_MAX_WAIT_MS, WATCH_READY_TIMEOUT_MS} from './constants.js'
import {createPathDebouncer} from './debounce.js'
import {createFileEvents} from './file-events.js'
import {isIgnoredPath} from './ignore.js'
import {trackOwnWrites} from './own-writes.js'
import {createTimelineReader} from './timeline-reader.js'

export interface MeshWatcherOptions {
  debounceMs?: number
  maxWaitMs?: number
  readyTimeoutMs?: number
}

export interface MeshWatcher {
  /** Starts watching; resolves once the first scan is done (or its time is up, with a warning). */
  start(): Promise<void>
  /** Why the watcher could not start, or null. */
  problem(): string | null
  close(): Promise<void>
}

export function createMeshWatcher(context: DaemonContext, options: MeshWatcherOptions = {}): MeshWatcher {
  const meshDir = context.meshPath()
  const toRelative = (absolute: string) => relative(meshDir, absolute).split(sep).join('/')
  const ownWrites = trackOwnWrites(context.writer, {watched: (path) => !isIgnoredPath(path), echoedReasons: ECHOED_REASONS})
  const timeline = createTimelineReader()
  const fileEvents = createFileEvents(context, {ownWrites, timeline})
  const logError = (msg: string, error: unknown): void => {
    context.debug.log({lvl: 'warn', tag: 'watch', msg: `${msg}: ${error instanceof Error ? error.message : String(error)}`})
  }

  let queue: Promise<void> = Promise.resolve()
  let closed = false
  let watcher: FSWatcher | undefined
  let startProblem: string | null = null
  /** Until chokidar's first scan ends, its `add`s are the files that were there: known, not news. */
  let scanned = false
  /** The task index serves from memory while this watch tells it of every change (from the first scan's end). */
  let index: TaskIndexFollower | undefined

  const debouncer = createPathDebouncer({
    windowMs: options.debounceMs ?? WATCH_DEBOUNCE_MS,
    maxWaitMs: options.maxWaitMs ?? WATCH_MAX_WAIT_MS,
    onSettled(burst) {
      // Read again now that the writes settled: a read in between may have caught one half done.
      index?.changed(burst.path)
      queue = queue.then(() => (closed ? undefined : fileEvents.handle(burst))).catch((error) => logError(`could not report a change to ${burst.path}`, error))
    },
  })

  const onRaw = (change: 'add' | 'change' | 'unlink') => (absolute: string, stats?: Stats) => {
    if (closed) return
    const path = toRelative(absolute)
    if (path === '' || path.startsWith('..') || isIgnoredPath(path)) return
    if (change === 'add' && !scanned) fileEvents.noteExisting(path, stats)
    else {
      index?.changed(path)
      debouncer.push(path)
    }
  }

  return {
    async start() {
      await timeline.seed(context.meshPath('timeline'), 'timeline')
      await fileEvents.seed().catch((error) => logError('could not read the task statuses at start', error))
      watcher = watch(meshDir, {
        // The first scan's `add`s tell which files exist at start (noteExisting): only a file consumers could
        // know of is ever `removed`.
        ignoreInitial: false,
        // An editor's delete-then-recreate (or rename over the file) is one `change`, not unlink + add.
        atomic: WATCH_ATOMIC_MS,
        // Off: it holds every event until the size is still for its threshold (2 s by default) and polls each
        // file. The project writer renames whole files into place; the debounce covers editors writing in steps.
        awaitWriteFinish: false,
        ignored: (absolute: string) => isIgnoredPath(toRelative(absolute)),
        // A symlink could lead the watch out of .mesh/ (and into a loop).
        followSymlinks: false,
      })
      watcher.on('add', onRaw('add')).on('change', onRaw('change')).on('unlink', onRaw('unlink'))
      watcher.on('error', (error) => {
        logError('file watcher error', error)
        // Changes may have gone unheard: the task index reads every file again.
        index?.lost()
      })
      const ready = new Promise<boolean>((resolve) => {
        const timer = setTimeout(resolve, options.readyTimeoutMs ?? WATCH_READY_TIMEOUT_MS, false)
        watcher!.once('ready', () => {
          scanned = true
          if (!closed) index = taskIndex(context).follow()
          clearTimeout(timer)
          // A scan that ends late ends the warning too.
          startProblem = null
          resolve(true)
        })
      })
      if (!(await ready)) {
        startProblem = 'the file watcher is still scanning .mesh/; changes made before it finishes are not reported'
        context.debug.log({lvl: 'warn', tag: 'watch', msg: startProblem})
      }
    },
    problem: () => startProblem,
    async close() {
      closed = true
      index?.stop()
      debouncer.clear()
      ownWrites.close()
      fileEvents.close()
      await watcher?.close().catch((error) => logError('closing the file watcher', error))
      await queue
    },
  }
}
