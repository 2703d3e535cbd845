/**
 * `.mesh/state.json`: the daemon's state (spec: Folder layout — generated,
 * never committed; v14 — "the daemon reports `context_tree.token_estimate` in
 * its state"). Derived from the same roadmap state `mesh roadmap build`
 * writes, the context tree and the daemon itself, so a tool that cannot call
 * the daemon (an editor extension, a shell prompt) reads the board from one
 * file. Shape: schemas/daemon-state.schema.json; docs/daemon.md, Generated state.
 */
import {heldActiveMessage, initiativesHeldActive, type HeldActive} from '../../standard/initiatives/held-active.js'
import type {RoadmapState} from '../../standard/roadmap/index.js'
import {dispatchBoard} from '../../standard/tasks/dispatchable.js'
import type {TaskSummary} from '../../standard/tasks/query.js'
import type {ContextTreeSize} from '../context-tree.js'
import {IMPLEMENTATION} from '../constants.js'
import {DAEMON_STATE_FORMAT} from './constants.js'

/** A task as `.mesh/state.json` lists it. */
export interface StateTask {
  id: string
  title: string
  status: string
  priority: string
  module: string
  owner: string
  initiative: string | null
  path: string
}

export interface DaemonState {
  format: number
  daemon: {implementation: string; version: string; pid: number}
  cluster: {id: string | null; name: string | null}
  standard_version: number | null
  context_tree: ContextTreeSize
  tasks: {
    /** Active tasks (archived ones are not counted here). */
    total: number
    archived: number
    /** Active tasks per status word as written (`none` for a task without one). */
    by_status: Record<string, number>
    /** spec v15: dispatchable status and every dependency done; priority order. */
    dispatchable: StateTask[]
    /** Dispatchable by status, waiting on dependencies not yet done. */
    waiting: Array<{id: string; waiting_on: string[]}>
    /** Tasks in draft: never dispatched, only the operator promotes them. */
    drafts: number
  }
  initiatives: {
    total: number
    by_status: Record<string, number>
    /** spec v15: initiatives with a child in draft that are not marked active. */
    held_active: HeldActive[]
  }
  /** Files left out because they could not be read (listed in roadmap/state.json `problems`). */
  problems: number
  /** The state's own warnings, in sentences (also on /health): initiatives held active. An over-budget context tree is `context_tree.over_budget`. */
  warnings: string[]
}

export interface DaemonStateInput {
  roadmap: RoadmapState
  contextTree: ContextTreeSize
  version: string
  pid: number
}

const countBy = (values: string[]) => {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value || 'none'] = (counts[value || 'none'] ?? 0) + 1
  return counts
}

const stateTask = (task: TaskSummary): StateTask => ({id: task.id, title: task.title, status: task.status, priority: task.priority, module: task.module, owner: task.owner, initiative: task.initiative, path: task.path})

/** The state for these inputs; no clock is read, so the same files and daemon give the same bytes. */
export function daemonState(input: DaemonStateInput): DaemonState {
  const {roadmap} = input
  const board = dispatchBoard(roadmap.tasks)
  const active = roadmap.tasks.filter((task) => !task.archived)
  const heldActive = initiativesHeldActive(roadmap.initiatives.map((initiative) => ({id: String(initiative.id), status: String(initiative.status)})), active)
  return {
    format: DAEMON_STATE_FORMAT,
    daemon: {implementation: IMPLEMENTATION, version: input.version, pid: input.pid},
    cluster: {id: roadmap.cluster.id, name: roadmap.cluster.name},
    standard_version: roadmap.standard_version,
    context_tree: input.contextTree,
    tasks: {
      total: active.length,
      archived: roadmap.tasks.length - active.length,
      by_status: roadmap.totals.by_status,
      dispatchable: board.dispatchable.map(stateTask),
      waiting: board.waiting.map((task) => ({id: task.id, waiting_on: task.waiting_on})),
      drafts: board.drafts.length,
    },
    initiatives: {
      total: roadmap.initiatives.length,
      by_status: countBy(roadmap.initiatives.map((initiative) => String(initiative.status ?? ''))),
      held_active: heldActive,
    },
    problems: roadmap.problems.length,
    warnings: heldActive.map(heldActiveMessage),
  }
}
