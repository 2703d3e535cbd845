import {mkdir, readdir, rm} from 'node:fs/promises'
import {join} from 'node:path'
import {conflict} from '../../lib/errors.js'
import {compareText} from '../compare.js'
import {createFileExclusive} from '../../lib/exclusive-create.js'
import {ARCHIVE_DIR, MAX_ID_ATTEMPTS, MODULES_DIR, RESERVATIONS_DIR, TASKS_DIR} from './constants.js'
import {meshPath} from '../project/project-root.js'
import {idsOf, scanTasks, type TaskRecord} from './task-files.js'

/** The number of `id` when it is `prefix` followed by digits only, else undefined. */
export function numberFor(prefix: string, id: string): number | undefined {
  if (!id.startsWith(prefix)) return undefined
  const rest = id.slice(prefix.length)
  return /^\d+$/.test(rest) ? Number(rest) : undefined
}

/** Highest number used with `prefix` by any task file, active or archived (0 when none). */
export function highestNumber(prefix: string, records: TaskRecord[]): number {
  let highest = 0
  for (const record of records) {
    for (const id of idsOf(record)) highest = Math.max(highest, numberFor(prefix, id) ?? 0)
  }
  return highest
}

/**
 * The prefix each module's files already use (the most common one; ties → the
 * alphabetically first), so existing ids keep their prefix.
 */
export function knownPrefixes(records: TaskRecord[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>()
  for (const record of records) {
    const match = /^([A-Z][A-Z]{0,3})\d+$/.exec(record.id)
    if (!match) continue
    const perModule = counts.get(record.module) ?? new Map<string, number>()
    perModule.set(match[1], (perModule.get(match[1]) ?? 0) + 1)
    counts.set(record.module, perModule)
  }
  const known = new Map<string, string>()
  for (const [module, perModule] of counts) {
    const best = [...perModule].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]
    known.set(module, best[0])
  }
  return known
}

/** Whether a task file named `<id>-….md` exists in any module, active or archived. */
async function idTaken(root: string, id: string): Promise<boolean> {
  const modulesDir = meshPath(root, MODULES_DIR)
  const names = async (dir: string) => readdir(dir).catch(() => [] as string[])
  const matches = (name: string) => name.startsWith(`${id}-`) || name === `${id}.md`
  for (const module of await names(modulesDir)) {
    if ((await names(join(modulesDir, module, TASKS_DIR))).some(matches)) return true
    for (const month of await names(join(modulesDir, module, ARCHIVE_DIR))) {
      if ((await names(join(modulesDir, module, ARCHIVE_DIR, month))).some(matches)) return true
    }
  }
  return false
}

/** A task id held for one creating process until `release()`. */
export interface TaskIdReservation {
  id: string
  /** Drops the reservation; call once the task file is written (or on failure). */
  release(): Promise<void>
}

/**
 * Reserves the next free id for `prefix`: one past the highest used by any
 * task file, active or archived (archived ids are never reused — DECISIONS).
 *
 * Two processes creating at once cannot get the same id: the id is claimed by
 * creating `.mesh/.runtime/task-ids/<ID>` exclusively (a hard link, which
 * fails when the name exists); when it exists the next number is tried. After the claim the task
 * folders are looked at again, so a claim released by a process that already
 * wrote its file (which a stale scan missed) is not handed out twice.
 */
export async function reserveTaskId(root: string, prefix: string, records?: TaskRecord[]): Promise<TaskIdReservation> {
  const known = records ?? (await scanTasks(root))
  const dir = meshPath(root, RESERVATIONS_DIR)
  await mkdir(dir, {recursive: true})
  const start = highestNumber(prefix, known) + 1
  for (let number = start; number < start + MAX_ID_ATTEMPTS; number++) {
    const id = `${prefix}${number}`
    const lock = join(dir, id)
    // Exclusive and atomic (temp file + hard link): a claim never replaces another, and never exists half-written.
    if (!(await createFileExclusive(lock, `${process.pid}\n`))) continue
    const release = async () => rm(lock, {force: true})
    if (await idTaken(root, id)) {
      await release()
      continue
    }
    return {id, release}
  }
  throw conflict('task_id_exhausted', `Could not reserve a task id with prefix ${prefix} after ${MAX_ID_ATTEMPTS} tries; look for stale files in .mesh/${RESERVATIONS_DIR}/.`)
}
