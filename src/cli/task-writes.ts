/**
 * The task writes of `mesh task create|move|archive`, each through the
 * running daemon or locally (project-writes.ts), with the same rules either
 * way (src/daemon/tasks/task-writes.ts) and the same answer and error codes:
 * the daemon's `task_not_found` is `task_unknown` here, as `mesh task` always
 * said (docs/standard-authoring.md).
 */
import {isMeshError, notFound} from '../lib/errors.js'
import type {ArchiveReport, CreatedTask, CreateTaskInput, MovedTask} from '../standard/tasks/index.js'
import {DAY_MS} from '../daemon/tasks/constants.js'
import {writeProject, type WriteVia} from './project-writes.js'

/** The CLI's codes for what the daemon names otherwise. */
function asCliError(error: unknown): never {
  if (isMeshError(error) && error.code === 'task_not_found') throw notFound('task_unknown', error.message)
  throw error
}

const tasksModule = () => import('../daemon/tasks/task-writes.js')

/** `mesh task move`: the move, who made it, and how it was written. */
export async function moveTaskEither(dir: string | undefined, input: {id: string; status: string; by: string}): Promise<MovedTask & {by: string; via: WriteVia}> {
  const {via, result} = await writeProject(dir, {
    daemon: (daemon) => daemon.call<MovedTask>('POST', `/tasks/${encodeURIComponent(input.id)}/transition`, {status: input.status, by: input.by}),
    local: async (project) => (await tasksModule()).moveTaskAs(project, input),
  }).catch(asCliError)
  return {...result, by: input.by, via}
}

export type CreateInput = Omit<CreateTaskInput, 'write' | 'now' | 'records'> & {by: string}

/** `mesh task create`. */
export async function createTaskEither(dir: string | undefined, input: CreateInput): Promise<CreatedTask & {via: WriteVia}> {
  const {dependsOn, ...rest} = input
  const {via, result} = await writeProject(dir, {
    daemon: (daemon) => daemon.call<CreatedTask>('POST', '/tasks', {...withoutUndefined(rest), ...(dependsOn ? {depends_on: dependsOn} : {})}),
    local: async (project) => (await tasksModule()).createTaskAs(project, input),
  }).catch(asCliError)
  return {...result, via}
}

/** `mesh task archive`. */
export async function archiveTasksEither(dir: string | undefined, input: {olderThanMs: number; by: string}): Promise<ArchiveReport & {via: WriteVia}> {
  const {via, result} = await writeProject(dir, {
    daemon: (daemon) => daemon.call<ArchiveReport>('POST', '/tasks/archive', {older_than_days: input.olderThanMs / DAY_MS, by: input.by}),
    local: async (project) => (await tasksModule()).archiveTasksAs(project, input.olderThanMs),
  })
  return {...result, via}
}

/** A JSON body without the keys a flag left unset. */
function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))
}
