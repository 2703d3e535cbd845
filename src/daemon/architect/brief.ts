/**
 * What a pass tells the architect (issue 20): the dispatchable tasks in
 * dispatch order, how to hand each on (a `mesh-delegate` block naming the
 * task, so the daemon knows what was dispatched), that drafts are not its to
 * promote, and the one `decisions:` line it ends with.
 */
import type {BoardTask} from '../../standard/tasks/dispatchable.js'
import {TASKS_IN_BRIEF} from './constants.js'

export interface PassBriefFacts {
  pass_id: string
  trigger: 'run' | 'auto'
  /** The tasks that made an automatic pass start. */
  tasks?: string[]
  dispatchable: BoardTask[]
  drafts: BoardTask[]
}

const taskLine = (task: BoardTask, index: number) =>
  `${index + 1}. #${task.id} [${task.priority || 'no priority'}${task.order === null ? '' : `, order ${task.order}`}] ${task.title || '(untitled)'} — module ${task.module}, status ${task.status}${task.owner ? `, owner ${task.owner}` : ''}`

export function passBriefText(facts: PassBriefFacts): string {
  const why = facts.trigger === 'run' ? 'the operator asked for it' : `${facts.tasks?.length ? facts.tasks.map((id) => `#${id}`).join(', ') : 'a task'} became dispatchable`
  const shown = facts.dispatchable.slice(0, TASKS_IN_BRIEF).map(taskLine)
  if (facts.dispatchable.length > TASKS_IN_BRIEF) shown.push(`… and ${facts.dispatchable.length - TASKS_IN_BRIEF} more (\`mesh architect status\` lists them all)`)
  const drafts =
    facts.drafts.length === 0
      ? 'No task is in draft.'
      : `${facts.drafts.length} task(s) in draft (${facts.drafts.map((task) => `#${task.id}`).join(', ')}) are not yours: only the operator promotes a draft. Skip them.`
  return [
    `Architect pass ${facts.pass_id} (${why}). Work through the dispatchable tasks below, in this order (priority, then order, then id):`,
    shown.join('\n'),
    `For each task you take on now, brief the teammate who should do it with a mesh-delegate block that names the task: {"member": "<teammate id>", "brief": "<what to do and when it is done>", "task": "<task id>"}. Defer the others and say why (waiting on something, nobody fit, not yet worth it). ${drafts}`,
    'End the pass, once the briefs you are waiting on are answered, with one line that starts with `decisions:` and says what you dispatched (to whom), what you deferred and why, and the drafts you skipped.',
  ].join('\n\n')
}
