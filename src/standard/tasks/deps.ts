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
  const included = new Set<string>()
  const visit = (id: string) => {
    if (included.has(id)) return
    included.add(id)
    for (const dependency of dependenciesOf(id)) visit(dependency)
  }
  if (rootId === undefined) {
    for (const record of records) if (!record.archived) visit(record.id)
  } else {
    visit(rootId)
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

/** Tarjan's strongly connected components; groups of two or more, or a self-loop, are cycles. */
export function findCycles(ids: string[], next: (id: string) => string[]): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const known = new Set(ids)
  const connect = (id: string) => {
    index.set(id, counter)
    low.set(id, counter)
    counter++
    stack.push(id)
    onStack.add(id)
    for (const to of next(id).filter((candidate) => known.has(candidate))) {
      if (!index.has(to)) {
        connect(to)
        low.set(id, Math.min(low.get(id)!, low.get(to)!))
      } else if (onStack.has(to)) {
        low.set(id, Math.min(low.get(id)!, index.get(to)!))
      }
    }
    if (low.get(id) !== index.get(id)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== id)
    if (group.length > 1 || next(id).includes(id)) cycles.push(group.sort(compareIds))
  }
  for (const id of ids) if (!index.has(id)) connect(id)
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

/**
 * The graph as an indented text tree: each task with the tasks it depends on
 * below it. A task shown before is marked `(see above)`; a way back into the
 * current path is marked `(cycle)`.
 */
export function renderDepTree(graph: DepGraph): string {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]))
  const children = new Map<string, string[]>()
  const hasParent = new Set<string>()
  for (const edge of graph.edges) {
    children.set(edge.from, [...(children.get(edge.from) ?? []), edge.to])
    hasParent.add(edge.to)
  }
  const label = (id: string) => {
    const node = nodes.get(id)!
    if (node.missing) return `${id} (missing: no task has this id)`
    return `${id} ${node.title} [${node.status || 'no status'}]${node.archived ? ' (archived)' : ''}`
  }
  const lines: string[] = []
  const shown = new Set<string>()
  const walk = (id: string, prefix: string, childPrefix: string, path: Set<string>) => {
    if (path.has(id)) return lines.push(`${prefix}${id} (cycle)`)
    if (shown.has(id) && (children.get(id) ?? []).length > 0) return lines.push(`${prefix}${label(id)} (see above)`)
    lines.push(prefix + label(id))
    shown.add(id)
    const kids = children.get(id) ?? []
    kids.forEach((kid, i) => {
      const last = i === kids.length - 1
      walk(kid, childPrefix + (last ? '└── ' : '├── '), childPrefix + (last ? '    ' : '│   '), new Set([...path, id]))
    })
  }
  const involved = graph.nodes.filter((node) => children.has(node.id) || hasParent.has(node.id)).map((node) => node.id)
  const roots = graph.root !== null ? [graph.root] : involved.filter((id) => !hasParent.has(id))
  for (const id of roots) walk(id, '', '', new Set())
  // Tasks only reachable through a cycle have no root above them.
  for (const id of involved) if (!shown.has(id)) walk(id, '', '', new Set())
  if (graph.root === null) {
    const alone = graph.nodes.length - involved.length
    if (alone > 0) lines.push(`${lines.length > 0 ? '\n' : ''}${alone} task${alone === 1 ? '' : 's'} without dependencies.`)
  }
  for (const cycle of graph.cycles) lines.push(`cycle: ${[...cycle, cycle[0]].join(' → ')}`)
  return lines.join('\n')
}
