/**
 * Every write of a task file, with the daemon's rules, for whoever writes:
 * the daemon's routes and hooks, and `mesh task …` when no daemon runs
 * (src/cli/project-writes.ts). Each goes through a project writer (snapshot
 * of the previous bytes, atomic write, inside `.mesh/` only) and holds the
 * cross-process task lock for its read-modify-write, so two writers never
 * interleave on one file (STYLE: one writer per file; issue 20).
 */
import {access} from 'node:fs/promises'
import {dirname, relative, sep} from 'node:path'
import {MeshError, forbidden, invalid} from '../../lib/errors.js'
import {ensureContainedFolder} from '../../lib/contained-files.js'
import {BY_OPERATOR} from '../../protocol/tasks.js'
import {meshPath} from '../../standard/project/project-root.js'
import {
  archiveDoneTasks,
  createTask,
  findTask,
  moveTask,
  recordCommitSha,
  type ArchiveReport,
  type CreatedTask,
  type CreateTaskInput,
  type MovedTask,
  type RecordedSha,
  type TaskRecord,
} from '../../standard/tasks/index.js'
import {withFileLock} from '../links/file-lock.js'
import type {ProjectWriter} from '../project-writer.js'
import {ARCHIVE_REASON, COMMIT_SHAS_REASON, CREATE_REASON, TASKS_LOCK_FILE, TASKS_LOCK_WAIT_MS, TRANSITION_REASON} from './constants.js'

/** Where task writes land: the project, its writer, its clock, and how its task files are found. */
export interface TaskWriteTarget {
  root: string
  writer: ProjectWriter
  now: () => Date
  /** The task records when the caller holds them (the daemon's index); else every write scans the files. */
  records?: () => Promise<TaskRecord[]>
}

/** The task of this id among the target's records (each write reads its file again before it rewrites it). */
const finder = (target: TaskWriteTarget) => {
  const {records} = target
  return records ? async (id: string) => findTask(target.root, id, await records()) : undefined
}

export interface MoveInput {
  id: string
  status: string
  /** `operator` or a team member id. */
  by: string
  /** A further refusal of the caller's, run after the rules. */
  check?: (move: {id: string; from: string; to: string}) => void
  /** Changes the moved file's text before it is written (task resolution's stamps), in the same one write. */
  rewrite?: (text: string) => string
}

const tasksLocked = (owner: number) => new MeshError('unavailable', 'tasks_locked', `Task files are being rewritten by another process (pid ${owner}) for too long; try again`)

/** Runs `work` holding `.mesh/.runtime/tasks.lock` (and this process's turn on it). */
export async function withTasksLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  await ensureContainedFolder(meshPath(root), dirname(TASKS_LOCK_FILE))
  return withFileLock(meshPath(root, TASKS_LOCK_FILE), work, {waitMs: TASKS_LOCK_WAIT_MS, busy: tasksLocked})
}

/** A member named in `by` must have a card in `.mesh/team/`. */
export async function assertActor(root: string, by: string): Promise<void> {
  if (by === BY_OPERATOR) return
  try {
    await access(meshPath(root, 'team', `${by}.md`))
  } catch {
    throw invalid('unknown_member', `by: no team member "${by}" in .mesh/team/; use "operator" or a member id`, {field: 'by'})
  }
}

/**
 * spec States and transitions: a draft is moved by the operator ("only the
 * operator promotes; the architect never does"). Any move out of `draft` by
 * a member is refused — to `next`, and to `done` or `blocked` as well, as task
 * resolution always did: a member may propose drafts, never decide them.
 */
export function assertDraftRule(by: string, move: {id: string; from: string; to: string}): void {
  if (by !== BY_OPERATOR && move.from === 'draft' && move.to !== 'draft') {
    throw forbidden('operator_only', `${move.id} is a draft: only the operator takes a task out of draft (to ${move.to}; by: "${by}")`)
  }
}

const insideMesh = (root: string, absolutePath: string) => relative(meshPath(root), absolutePath).split(sep).join('/')

/** Moves a task (the rules of `mesh task move`, the draft rule, `by` checked), under the task lock, through the writer. */
export async function moveTaskAs(target: TaskWriteTarget, input: MoveInput): Promise<MovedTask> {
  await assertActor(target.root, input.by)
  return withTasksLock(target.root, () =>
    moveTask(target.root, input.id, input.status, target.now(), {
      find: finder(target),
      check: (move) => {
        assertDraftRule(input.by, move)
        input.check?.(move)
      },
      write: async (absolutePath, text) => {
        await target.writer.write(insideMesh(target.root, absolutePath), input.rewrite ? input.rewrite(text) : text, {reason: TRANSITION_REASON})
      },
    }),
  )
}

/** Creates a task with the next free id, through the writer (the id reservation keeps two creators apart). */
export async function createTaskAs(target: TaskWriteTarget, input: Omit<CreateTaskInput, 'write' | 'now' | 'records'> & {by: string}): Promise<CreatedTask> {
  await assertActor(target.root, input.by)
  const {by: _by, ...task} = input
  return createTask(target.root, {
    ...task,
    records: await target.records?.(),
    now: target.now(),
    write: async (absolutePath, text) => {
      await target.writer.write(insideMesh(target.root, absolutePath), text, {reason: CREATE_REASON})
    },
  })
}

/**
 * Archives done tasks completed at least `olderThanMs` ago, under the task
 * lock: the archived copy is written, then the active file removed (its bytes
 * kept as a snapshot, so `mesh daemon restore` brings it back).
 */
export async function archiveTasksAs(target: TaskWriteTarget, olderThanMs: number): Promise<ArchiveReport> {
  return withTasksLock(target.root, () =>
    archiveDoneTasks(target.root, {
      olderThanMs,
      now: target.now(),
      move: async (from, to, bytes) => {
        await target.writer.write(insideMesh(target.root, to), bytes, {reason: ARCHIVE_REASON})
        await target.writer.remove(insideMesh(target.root, from), {reason: ARCHIVE_REASON})
      },
    }),
  )
}

/** Appends a commit's SHA to the task's `commit_shas`, under the task lock, through the writer. */
export async function recordShaAs(target: TaskWriteTarget, id: string, sha: string): Promise<RecordedSha> {
  return withTasksLock(target.root, () =>
    recordCommitSha(target.root, id, sha, {
      find: finder(target),
      write: async (absolutePath, text) => {
        await target.writer.write(insideMesh(target.root, absolutePath), text, {reason: COMMIT_SHAS_REASON})
      },
    }),
  )
}
