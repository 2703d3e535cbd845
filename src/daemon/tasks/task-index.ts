/**
 * The daemon's task index (issue 22; docs/daemon.md, Task index): every task
 * file's record, as scanTasks reads it, held in memory so the board,
 * `GET /tasks`, a transition, the architect's wakes and the generated state
 * read a thousand tasks without reading a thousand files. The files stay the
 * source of truth:
 * - memory serves only while the file watcher follows `.mesh/` (`follow()`,
 *   from the end of its first scan); without one — a daemon built without the
 *   watch area, a watcher still scanning — every read scans the files;
 * - a path the watcher hears of (at once, and again once its changes settle)
 *   or the project writer writes is read again at the next read, so a read
 *   never misses a change the watcher has seen;
 * - a watcher error drops everything: the next read scans again;
 * - a move reads its file again before it rewrites it (moveTask), so the
 *   rules apply to the file as it is, not as it was indexed.
 */
import {MESH_DIR} from '../../protocol/daemon.js'
import {findTask, readTaskFile, scanTasks, taskFilePlace, type TaskRecord} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import type {ProjectWriter} from '../project-writer.js'

export interface TaskIndex {
  /** Every task record, active and archived, in scanTasks' order. The same array until something changes. */
  records(): Promise<TaskRecord[]>
  /** The task with this id, by findTask's rules (404 `task_unknown`, 409 `task_ambiguous`). */
  find(id: string): Promise<TaskRecord>
  /** Memory serves from now on: the caller reports every change under `.mesh/` until it stops. */
  follow(): TaskIndexFollower
}

export interface TaskIndexFollower {
  /** A `.mesh/`-relative path changed, or may have: a task file among them is read again at the next read. */
  changed(meshRelativePath: string): void
  /** Changes may have been missed: every file is read again at the next read. */
  lost(): void
  /** Stops following: reads scan the files again. */
  stop(): void
}

const indexes = new WeakMap<DaemonContext, TaskIndex>()

/** The one task index of a daemon. */
export function taskIndex(context: DaemonContext): TaskIndex {
  let index = indexes.get(context)
  if (!index) indexes.set(context, (index = createTaskIndex(context.root, context.writer)))
  return index
}

const insideMesh = (record: TaskRecord) => record.relativePath.slice(MESH_DIR.length + 1)

/** scanTasks' order: by module, a module's active files before its archive, then by path. */
const scanOrder = (a: TaskRecord, b: TaskRecord) =>
  a.module < b.module ? -1 : a.module > b.module ? 1 : Number(a.archived) - Number(b.archived) || (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0)

export function createTaskIndex(root: string, writer: ProjectWriter): TaskIndex {
  let following = 0
  /** Records by `.mesh/`-relative path; null until loaded (and after a loss). */
  let byPath: Map<string, TaskRecord> | null = null
  let ordered: TaskRecord[] | null = null
  /** Paths to read again before the next answer. */
  const stale = new Set<string>()
  let loading: Promise<void> | null = null
  /** Bumped by a loss, so a load that began before it is not kept. */
  let generation = 0

  const changed = (path: string) => {
    if (following > 0 && taskFilePlace(path)) stale.add(path)
  }
  // The daemon's own writes (transitions, creates, archives, bookkeeping): the watcher skips their echoes.
  writer.onWrite((written) => changed(written.path))

  const load = () =>
    (loading ??= (async () => {
      const at = generation
      // What changes from here on is read again after the scan.
      stale.clear()
      try {
        const records = await scanTasks(root)
        if (at !== generation || following === 0) return
        byPath = new Map(records.map((record) => [insideMesh(record), record]))
        ordered = records
      } finally {
        loading = null
      }
    })())

  /** Reads the stale paths again (a few small files: synchronously, as scanTasks does). */
  const freshen = (records: Map<string, TaskRecord>) => {
    if (stale.size === 0) return
    for (const path of stale) {
      const record = readTaskFile(root, path)
      if (record) records.set(path, record)
      else records.delete(path)
    }
    stale.clear()
    ordered = null
  }

  /** Drops what memory holds: the next read scans. */
  const forget = () => {
    generation++
    byPath = null
    ordered = null
    stale.clear()
  }

  const records = async (): Promise<TaskRecord[]> => {
    if (following === 0) return scanTasks(root)
    if (!byPath) await load()
    // Lost again (or no longer followed) while it loaded: this read scans.
    if (!byPath) return scanTasks(root)
    freshen(byPath)
    return (ordered ??= [...byPath.values()].sort(scanOrder))
  }

  return {
    records,
    find: async (id) => findTask(root, id, await records()),
    follow() {
      following++
      let stopped = false
      return {
        changed: (path) => !stopped && changed(path),
        lost: () => !stopped && forget(),
        stop() {
          if (stopped) return
          stopped = true
          following--
          if (following === 0) forget()
        },
      }
    },
  }
}
