import {compareIds, findTask, summarize} from './query.js'
import {idsOf, scanTasks, type TaskRecord} from './task-files.js'

export interface DepNode {
  id: string
  title: string
  status: string
  module: string
  archived: boolean
  /** Named in a depends_on but no task file has this id. */
  missing: boolean
}

/** `from` depends on `to`. */
export interface DepEdge {
  from: string
  to: string
}

export interface DepGraph {
  /** The task asked about, or null for the whole project. */
  root: string | null
  nodes: DepNode[]
  edges: DepEdge[]
  /** Each cycle as its member ids (a strongly connected group, or a task depending on itself). */
  cycles: string[][]
  /** Ids named in depends_on with no task file. */
  missing: string[]
}

/**
 * The dependency graph of the project's tasks, or of the tasks `rootId` needs
 * (transitively). Active tasks are always nodes of the whole graph; archived
 * ones only when something depends on them.
 */
export function buildDepGraph(records: TaskRecord[], rootId?: string): DepGraph {
  const byId = new Map<string, TaskRecord>()
  for (const record of [...records].sort((a, b) => Number(a.archived) - Number(b.archived))) {
    for (const id of idsOf(record)) if (!byId.has(id)) byId.set(id, record)
  }
  const dependenciesOf = (id: string): string[] => {
    const record = byId.get(id)
    return record ? [...new Set(summarize(record).depends_on)].sort(compareIds) : []
  }
  // An explicit stack, not recursion: a chain of thousands of tasks must not overflow the call stack.
  const included = new Set<string>()
  const pending = rootId === undefined ? records.filter((record) => !record.archived).map((record) => record.id) : [rootId]
  while (pending.length > 0) {
    const id = pending.pop()!
    if (included.has(id)) continue
    included.add(id)
    for (const dependency of dependenciesOf(id)) if (!included.has(dependency)) pending.push(dependency)
  }
  const ids = [...included].sort(compareIds)
  const nodes = ids.map((id): DepNode => {
    const record = byId.get(id)
    if (!record) return {id, title: '', status: '', module: '', archived: false, missing: true}
    const summary = summarize(record)
    return {id, title: summary.title, status: summary.status, module: summary.module, archived: record.archived, missing: false}
  })
  const edges = ids.flatMap((from) => dependenciesOf(from).map((to) => ({from, to})))
  return {
    root: rootId ?? null,
    nodes,
    edges,
    cycles: findCycles(ids, dependenciesOf),
    missing: nodes.filter((node) => node.missing).map((node) => node.id),
  }
}

/**
 * Tarjan's strongly connected components; groups of two or more, or a
 * self-loop, are cycles. Iterative (one frame per node on an explicit stack),
 * so a dependency chain of any length is fine.
 */
export function findCycles(ids: string[], next: (id: string) => string[]): string[][] {
  const known = new Set(ids)
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const frames: Array<{id: string; targets: string[]; at: number}> = []
  const enter = (id: string) => {
    index.set(id, counter)
    low.set(id, counter)
    counter++
    stack.push(id)
    onStack.add(id)
    frames.push({id, targets: next(id).filter((candidate) => known.has(candidate)), at: 0})
  }
  for (const start of ids) {
    if (index.has(start)) continue
    enter(start)
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]
      if (frame.at < frame.targets.length) {
        const to = frame.targets[frame.at++]
        if (!index.has(to)) enter(to)
        else if (onStack.has(to)) low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!))
        continue
      }
      frames.pop()
      const {id} = frame
      const parent = frames[frames.length - 1]
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(id)!))
      if (low.get(id) !== index.get(id)) continue
      const group: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== id)
      if (group.length > 1 || frame.targets.includes(id)) cycles.push(group.sort(compareIds))
    }
  }
  return cycles.sort((a, b) => compareIds(a[0], b[0]))
}

/** Loads the project's tasks and builds the graph. */
export async function taskDependencies(root: string, rootId?: string): Promise<DepGraph> {
  const records = await scanTasks(root)
  if (rootId !== undefined) {
    rootId = (await findTask(root, rootId, records)).id
  }
  return buildDepGraph(records, rootId)
}

/** Levels of indentation a tree shows before it continues a branch as a new tree below (deep chains stay readable). */
export const MAX_TREE_DEPTH = 24

/**
 * The graph as an indented text tree: each task with the tasks it depends on
 * below it. A task shown before is marked `(see above)`; a way back into the
 * current path is marked `(cycle)`. A branch deeper than MAX_TREE_DEPTH is
 * marked `(continued below)` and goes on as a tree of its own, so output grows
 * with the number of tasks, not with the square of a chain's length.
 */
export function renderDepTree(graph: DepGraph): string {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]))
  const children = new Map<string, string[]>()
  const hasParent = new Set<string>()
  for (const edge of graph.edges) {
    const list = children.get(edge.from)
    if (list) list.push(edge.to)
    else children.set(edge.from, [edge.to])
    hasParent.add(edge.to)
  }
  const label = (id: string) => {
    const node = nodes.get(id)!
    if (node.missing) return `${id} (missing: no task has this id)`
    return `${id} ${node.title} [${node.status || 'no status'}]${node.archived ? ' (archived)' : ''}`
  }
  const lines: string[] = []
  const shown = new Set<string>()
  const continued: string[] = []
  const walk = (rootId: string) => {
    const onPath = new Set<string>()
    const frames: Array<{id: string; kids: string[]; at: number; childPrefix: string}> = []
    const open = (id: string, prefix: string, childPrefix: string) => {
      if (onPath.has(id)) return void lines.push(`${prefix}${id} (cycle)`)
      const kids = children.get(id) ?? []
      if (shown.has(id) && kids.length > 0) return void lines.push(`${prefix}${label(id)} (see above)`)
      if (kids.length > 0 && frames.length >= MAX_TREE_DEPTH) {
        continued.push(id)
        return void lines.push(`${prefix}${label(id)} (continued below)`)
      }
      lines.push(prefix + label(id))
      shown.add(id)
      onPath.add(id)
      frames.push({id, kids, at: 0, childPrefix})
    }
    open(rootId, '', '')
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]
      if (frame.at >= frame.kids.length) {
        frames.pop()
        onPath.delete(frame.id)
        continue
      }
      const last = frame.at === frame.kids.length - 1
      const kid = frame.kids[frame.at++]
      open(kid, frame.childPrefix + (last ? '└── ' : '├── '), frame.childPrefix + (last ? '    ' : '│   '))
    }
  }
  const involved = graph.nodes.filter((node) => children.has(node.id) || hasParent.has(node.id)).map((node) => node.id)
  const roots = graph.root !== null ? [graph.root] : involved.filter((id) => !hasParent.has(id))
  const drainContinued = () => {
    while (continued.length > 0) {
      const id = continued.shift()!
      if (!shown.has(id)) walk(id)
    }
  }
  for (const id of roots) {
    walk(id)
    drainContinued()
  }
  // Tasks only reachable through a cycle have no root above them.
  for (const id of involved) {
    if (shown.has(id)) continue
    walk(id)
    drainContinued()
  }
  if (graph.root === null) {
    const alone = graph.nodes.length - involved.length
    if (alone > 0) lines.push(`${lines.length > 0 ? '\n' : ''}${alone} task${alone === 1 ? '' : 's'} without dependencies.`)
  }
  for (const cycle of graph.cycles) lines.push(`cycle: ${[...cycle, cycle[0]].join(' → ')}`)
  return lines.join('\n')
}
