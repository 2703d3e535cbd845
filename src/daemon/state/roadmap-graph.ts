/**
 * A dependency graph as server-rendered SVG (docs/ide.md, Roadmap): the
 * tasks of one group that depend on another or are depended on, laid out in
 * columns by dependency depth (a task stands right of everything it waits
 * on), an arrow from each dependency to its dependant. By hand rather than a
 * graph library: a layered layout of a few hundred nodes is forty lines, and
 * the page must load nothing from elsewhere. Every value goes through the
 * escaping template; colours come from classes, never a style attribute (the
 * IDE's CSP allows none).
 */
import {clip, html, type Html} from '../../http/html.js'

export interface GraphTask {
  id: string
  title: string
  status: string
  depends_on: string[]
}

const NODE_WIDTH = 104
const NODE_HEIGHT = 30
const GAP_X = 44
const GAP_Y = 10
const PAD = 6
/** A graph larger than this shows its first nodes only (the table beside it lists every task). */
export const GRAPH_MAX_NODES = 240

/** Status words the stylesheet colours (`s-<status>`); any other is `s-other`. */
const STATUS_CLASSES = new Set(['draft', 'backlog', 'next', 'active', 'blocked', 'done', 'cancelled'])
export const statusClass = (status: string) => `s-${STATUS_CLASSES.has(status) ? status : 'other'}`

/**
 * Columns by depth: a node's column is one more than the deepest of its
 * dependencies in the graph. Cycles (which `mesh validate` reports) are cut
 * where the walk meets a node it is still inside.
 */
function depths(ids: string[], dependencies: Map<string, string[]>): Map<string, number> {
  const depth = new Map<string, number>()
  const visiting = new Set<string>()
  const visit = (id: string): number => {
    const known = depth.get(id)
    if (known !== undefined) return known
    if (visiting.has(id)) return 0
    visiting.add(id)
    let value = 0
    for (const dependency of dependencies.get(id) ?? []) value = Math.max(value, visit(dependency) + 1)
    visiting.delete(id)
    depth.set(id, value)
    return value
  }
  for (const id of ids) visit(id)
  return depth
}

/**
 * The graph of `tasks` (one initiative's, say), or null when none of them
 * depends on another task or is depended on. A dependency outside the group
 * is drawn too, dashed (`external`), so a task's wait is never hidden.
 * `label` names the group for the figure's caption; `key` makes the marker's
 * id unique in the page.
 */
export function renderDependencyGraph(tasks: GraphTask[], all: Map<string, GraphTask>, label: string, key: string): Html | null {
  const inGroup = new Map(tasks.map((task) => [task.id, task]))
  const edges: Array<[string, string]> = []
  for (const task of tasks) for (const dependency of task.depends_on) if (dependency !== task.id) edges.push([dependency, task.id])
  if (edges.length === 0) return null
  const ids: string[] = []
  const seen = new Set<string>()
  for (const [from, to] of edges) for (const id of [from, to]) if (!seen.has(id)) (seen.add(id), ids.push(id))
  const shown = new Set(ids.slice(0, GRAPH_MAX_NODES))
  const kept = edges.filter(([from, to]) => shown.has(from) && shown.has(to))
  const dependencies = new Map<string, string[]>()
  for (const [from, to] of kept) dependencies.set(to, [...(dependencies.get(to) ?? []), from])
  const depth = depths([...shown], dependencies)
  const columns: string[][] = []
  for (const id of shown) (columns[depth.get(id)!] ??= []).push(id)
  const at = new Map<string, {x: number; y: number}>()
  columns.forEach((column, index) => column.forEach((id, row) => at.set(id, {x: PAD + index * (NODE_WIDTH + GAP_X), y: PAD + row * (NODE_HEIGHT + GAP_Y)})))
  const width = PAD * 2 + columns.length * NODE_WIDTH + (columns.length - 1) * GAP_X
  const height = PAD * 2 + Math.max(...columns.map((column) => column.length)) * (NODE_HEIGHT + GAP_Y) - GAP_Y
  const marker = `arrow-${key}`
  const paths = kept.map(([from, to]) => {
    const a = at.get(from)!
    const b = at.get(to)!
    const x1 = a.x + NODE_WIDTH
    const y1 = a.y + NODE_HEIGHT / 2
    const x2 = b.x - 3
    const y2 = b.y + NODE_HEIGHT / 2
    const bend = Math.max(16, (x2 - x1) / 2)
    return html`<path d="M${x1} ${y1}C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}" marker-end="url(#${marker})"/>`
  })
  const nodes = [...shown].map((id) => {
    const {x, y} = at.get(id)!
    const task = inGroup.get(id) ?? all.get(id)
    const external = !inGroup.has(id)
    const status = task?.status ?? ''
    // Id and status only: the table beside the graph has the titles (and a thousand of them would weigh on the page).
    const tip = task ? `${id} [${status || 'no status'}]${external ? ', outside this group' : ''}` : `${id}: no task has this id`
    return html`<g class="node ${statusClass(status)}${external ? ' external' : ''}" transform="translate(${x} ${y})"><title>${tip}</title><rect width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6"/><text x="${NODE_WIDTH / 2}" y="${NODE_HEIGHT / 2 + 4}">${clip(id, 14)}</text></g>`
  })
  const more = ids.length - shown.size
  const caption = `Dependencies of ${label}: ${shown.size} tasks, ${kept.length} arrow${kept.length === 1 ? '' : 's'} from a dependency to the task that waits on it${more > 0 ? ` (${more} more tasks not drawn; the table lists them all)` : ''}. Dashed: a task outside this group.`
  return html`<figure class="graph">
<div class="graph-scroll"><svg role="img" aria-label="${caption}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" class="arrow-head"/></marker></defs><g class="edges">${paths}</g>${nodes}</svg></div>
<figcaption>${caption}</figcaption>
</figure>`
}
