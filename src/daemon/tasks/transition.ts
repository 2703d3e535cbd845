/**
 * `POST /tasks/<id>/transition`: the moves of `mesh task move` (status words,
 * dispatchability, `updated`, `completed_at`, archived tasks refused) with
 * the daemon's rules on top — the write goes through the project writer
 * (snapshot, atomic), only the operator promotes a draft (spec: States and
 * transitions), and `task.updated` tells every /events subscriber.
 */
import {access} from 'node:fs/promises'
import {relative} from 'node:path'
import {forbidden, invalid} from '../../lib/errors.js'
import {createMutex, type Mutex} from '../../lib/mutex.js'
import {isDispatchable, moveTask, type MovedTask} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import {daemonTaskError} from './lookup.js'

/** Who a portal-token caller is unless it says otherwise (docs/daemon-api.md, Tasks). */
export const OPERATOR = 'operator'

export interface TransitionInput {
  id: string
  status: string
  /** `operator` or a team member id. */
  by: string
  /** A further refusal of the caller's (task resolution refuses drafts), run after the daemon's own checks. */
  check?: (move: {id: string; from: string; to: string}) => void
  /**
   * Changes the moved file's text before it is written, so a caller's extra
   * fields and sections land in the same one write (task resolution's stamps
   * and `## Resolution`). Not called when the task already has the status.
   */
  rewrite?: (text: string) => string
}

const mutexes = new WeakMap<DaemonContext, Mutex>()

/** The one transition mutex of a daemon: the tasks area's routes and task resolution take turns on it. */
export function taskMutex(context: DaemonContext): Mutex {
  let mutex = mutexes.get(context)
  if (!mutex) mutexes.set(context, (mutex = createMutex()))
  return mutex
}

/** A member named in `by` must have a card in `.mesh/team/`. */
async function assertMember(context: DaemonContext, by: string): Promise<void> {
  try {
    await access(context.meshPath('team', `${by}.md`))
  } catch {
    throw invalid('unknown_member', `by: no team member "${by}" in .mesh/team/; use "operator" or a member id`, {field: 'by'})
  }
}

/**
 * spec States and transitions: only the operator promotes a draft. A draft
 * made dispatchable any other way (`active`, `doing`…) is a promotion too.
 */
function operatorOnly(by: string) {
  return ({id, from, to}: {id: string; from: string; to: string}) => {
    if (by !== OPERATOR && from === 'draft' && isDispatchable(to)) {
      throw forbidden('operator_only', `${id} is a draft: only the operator promotes it to ${to} (by: "${by}")`)
    }
  }
}

/** Moves the task, one transition at a time in this daemon (`mutex`), and publishes `task.updated` when it changed. */
export async function transitionTask(context: DaemonContext, mutex: Mutex, input: TransitionInput): Promise<MovedTask> {
  if (input.by !== OPERATOR) await assertMember(context, input.by)
  const moved = await mutex.run(async () => {
    try {
      return await moveTask(context.root, input.id, input.status, new Date(context.clock()), {
        check: (move) => {
          operatorOnly(input.by)(move)
          input.check?.(move)
        },
        write: async (absolutePath, text) => {
          await context.writer.write(relative(context.meshPath(), absolutePath), input.rewrite ? input.rewrite(text) : text, {reason: 'task.transition'})
        },
      })
    } catch (error) {
      throw daemonTaskError(error)
    }
  })
  if (moved.changed) {
    const {id, from, to, path, dispatchable, completed_at} = moved
    context.events.publish('task.updated', {id, from, to, path, dispatchable, completed_at, by: input.by})
  }
  return moved
}
