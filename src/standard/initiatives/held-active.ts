/**
 * spec Dispatchability (v15): "An initiative with any child in `draft` stays
 * `active`." A draft waits on the operator, so the initiative it belongs to
 * is not done (nor cancelled, nor back to draft) while it does. The rule is
 * checked, never applied: `mesh validate` reports an initiative marked
 * otherwise (rule `initiative-draft-active`), and the daemon warns on
 * `/health`. Archived tasks are history: only active tasks count.
 */

export interface InitiativeStatusRef {
  id: string
  status: string
}

export interface ChildTaskRef {
  id: string
  status: string
  initiative: string | null
  archived?: boolean
}

export interface HeldActive {
  /** The initiative's id. */
  id: string
  /** What it is marked. */
  status: string
  /** Its children in `draft`, by id. */
  drafts: string[]
}

/** The initiative status a draft child holds its initiative in. */
export const HELD_STATUS = 'active'

/** Initiatives with a child in `draft` that are not marked `active`, in the order given. */
export function initiativesHeldActive(initiatives: readonly InitiativeStatusRef[], tasks: readonly ChildTaskRef[]): HeldActive[] {
  const drafts = new Map<string, string[]>()
  for (const task of tasks) {
    if (task.archived || task.status !== 'draft' || task.initiative === null) continue
    drafts.set(task.initiative, [...(drafts.get(task.initiative) ?? []), task.id])
  }
  return initiatives.flatMap((initiative) => {
    const children = drafts.get(initiative.id)
    return children && initiative.status !== HELD_STATUS ? [{id: initiative.id, status: initiative.status, drafts: children}] : []
  })
}

/** The sentence for one: `/health` warnings and `mesh validate` say the same. */
export const heldActiveMessage = (held: HeldActive) =>
  `initiative ${held.id} is marked "${held.status || '(none)'}" but has ${held.drafts.length === 1 ? 'a task' : 'tasks'} in draft (${held.drafts.map((id) => `#${id}`).join(', ')}): an initiative with a child in draft stays active (spec v15)`
