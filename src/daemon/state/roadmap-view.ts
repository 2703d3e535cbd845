/**
 * The roadmap as HTML (issue 22, deliverable 3; docs/ide.md, Roadmap): the
 * initiatives with their progress, each one's tasks and dependency graph,
 * then the tasks without an initiative and the files that could not be read
 * — all from one `roadmap/state.json` state. One renderer for two pages, so
 * they cannot drift: the IDE's Roadmap view (served with the IDE's
 * stylesheet, tasks open in its dialog) and `.mesh/architect/roadmap.html`
 * (opened from disk, tasks link to their files). Every value is escaped;
 * nothing here runs a script.
 */
import {clip, html, type Html} from '../../http/html.js'
import type {RoadmapState} from '../../standard/roadmap/index.js'
import {renderDependencyGraph, statusClass, type GraphTask} from './roadmap-graph.js'

type RoadmapTask = RoadmapState['tasks'][number]

export interface RoadmapViewOptions {
  /**
   * How a task's id is shown: `ide` — a button that opens the task in the
   * page's dialog; `file` — a link to the task file, relative to
   * `.mesh/architect/` (the static page's folder).
   */
  links: 'ide' | 'file'
}

const TITLE_SHOWN = 200
const STATUS_ORDER = ['draft', 'backlog', 'next', 'active', 'blocked', 'done']

const text = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value))
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : [])

/** A `.mesh/`-relative path as an href from `.mesh/architect/`, each segment encoded. */
const fileHref = (path: string) => `../${path.replace(/^\.mesh\//, '').split('/').map(encodeURIComponent).join('/')}`

function taskId(task: RoadmapTask, options: RoadmapViewOptions): Html {
  // No type or class: one per task, the bytes count at a thousand; the stylesheet styles `.roadmap button[data-open]`, and no form holds them.
  if (options.links === 'ide') return html`<button data-open="${task.id}">${task.id}</button>`
  return html`<a class="id" href="${fileHref(task.path)}">${task.id}</a>`
}

function taskTable(tasks: RoadmapTask[], caption: string, options: RoadmapViewOptions): Html {
  const rows = tasks.map(
    (task) =>
      html`<tr data-task="${task.id}"><td>${taskId(task, options)}</td><td class="title">${clip(task.title, TITLE_SHOWN) || '(no title)'}</td><td class="${statusClass(task.status)}">${task.status || 'none'}</td><td>${task.priority}</td><td>${task.module}</td><td>${task.owner}</td><td>${task.waiting_on.length > 0 ? html`<span class="waiting">${task.waiting_on.join(', ')}</span>` : ''}</td></tr>`,
  )
  return html`<div class="table-scroll"><table class="roadmap-tasks"><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Task</th><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Priority</th><th scope="col">Module</th><th scope="col">Owner</th><th scope="col">Waits on</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}

/**
 * Done tasks as a line of ids, not table rows: in a long-lived project they are most of the
 * tasks, and the page must stay small (a page over 500 KB is a bug); each id still opens
 * its task (or file), and the graph still draws them.
 */
function doneLine(tasks: RoadmapTask[], options: RoadmapViewOptions): Html | '' {
  if (tasks.length === 0) return ''
  return html`<p class="done-line"><span class="status s-done">done</span> ${tasks.length}: ${tasks.map((task, index) => html`${index ? ' ' : ''}${taskId(task, options)}`)}</p>`
}

/** A group's open tasks as a table, its done ones as a line. */
function groupTasks(tasks: RoadmapTask[], caption: string, options: RoadmapViewOptions): Html {
  const open = tasks.filter((task) => task.status !== 'done')
  return html`${open.length > 0 ? taskTable(open, caption, options) : html`<p class="hint">No open task.</p>`}${doneLine(tasks.filter((task) => task.status === 'done'), options)}`
}

/** Tasks in board order: by status (draft … done, then any other word), then id as the state lists them. */
const rank = (status: string) => (STATUS_ORDER.includes(status) ? STATUS_ORDER.indexOf(status) : STATUS_ORDER.length)
const byStatus = (tasks: RoadmapTask[]) => tasks.map((task, order) => ({task, order})).sort((a, b) => rank(a.task.status) - rank(b.task.status) || a.order - b.order).map((entry) => entry.task)

function progressOf(done: number, total: number, label: string, id: string): Html {
  const percent = total > 0 ? Math.round((100 * done) / total) : 0
  return html`<span class="progress"><progress id="${id}" max="${Math.max(total, 1)}" value="${done}" aria-label="${label}: ${done} of ${total} tasks done">${percent}%</progress> <span>${done} of ${total} done (${percent}%)</span></span>`
}

/** The roadmap's content (no page frame): what both pages show. */
export function renderRoadmapView(state: RoadmapState, options: RoadmapViewOptions): Html {
  const active = state.tasks.filter((task) => !task.archived)
  const archived = state.tasks.length - active.length
  const graphAll = new Map<string, GraphTask>(state.tasks.map((task) => [task.id, task]))
  const initiatives = state.initiatives.map((initiative) => ({
    id: text(initiative.id),
    title: text(initiative.title),
    status: text(initiative.status),
    owner: text(initiative.owner),
    modules: list(initiative.modules),
    done: Number((initiative.progress as {done?: unknown} | undefined)?.done) || 0,
    total: Number((initiative.progress as {total?: unknown} | undefined)?.total) || 0,
    path: text(initiative.path),
  }))
  const statusCounts = Object.entries(state.totals.by_status).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
  const overview = html`<p class="summary">${initiatives.length} initiative${initiatives.length === 1 ? '' : 's'} · ${active.length} active task${active.length === 1 ? '' : 's'} · ${archived} archived · ${state.totals.unanchored} without an initiative${state.standard_version === null ? '' : ` · standard v${state.standard_version}`}</p>
<ul class="status-counts" aria-label="Active tasks by status">${statusCounts.map(([status, count]) => html`<li><span class="status ${statusClass(status)}">${status}</span> ${count}</li>`)}</ul>`
  const jump =
    initiatives.length > 0
      ? html`<nav class="jump" aria-label="Initiatives"><ul>${initiatives.map((initiative, index) => html`<li><a href="#initiative-${index}">#${initiative.id}</a> ${progressOf(initiative.done, initiative.total, `#${initiative.id}`, `progress-jump-${index}`)}</li>`)}</ul></nav>`
      : html`<p class="hint">No initiatives yet: <code>mesh initiative create</code> starts one.</p>`
  const sections = initiatives.map((initiative, index) => {
    const tasks = byStatus(active.filter((task) => task.initiative === initiative.id))
    const graph = renderDependencyGraph(tasks, graphAll, `#${initiative.id}`, `i${index}`)
    const heading = `initiative-${index}-title`
    return html`<section class="initiative" id="initiative-${index}" aria-labelledby="${heading}">
<h2 id="${heading}"><span class="id">#${initiative.id}</span> ${clip(initiative.title, TITLE_SHOWN) || '(no title)'} <span class="status ${statusClass(initiative.status)}">${initiative.status || 'no status'}</span></h2>
<p class="meta">${progressOf(initiative.done, initiative.total, `#${initiative.id}`, `progress-${index}`)}${initiative.owner ? html` · owner ${initiative.owner}` : ''}${initiative.modules.length ? html` · modules ${initiative.modules.join(', ')}` : ''}${initiative.total - tasks.length > 0 ? html` · ${initiative.total - tasks.length} archived` : ''}</p>
${tasks.length > 0 ? groupTasks(tasks, `Tasks of #${initiative.id}`, options) : html`<p class="hint">No active task.</p>`}
${graph ?? ''}
</section>`
  })
  const known = new Set(initiatives.map((initiative) => initiative.id))
  // Tasks no initiative claims: none named, or one no file defines.
  const loose = byStatus(active.filter((task) => task.initiative === null || !known.has(task.initiative)))
  const looseGraph = renderDependencyGraph(loose, graphAll, 'the tasks without an initiative', 'none')
  const looseSection =
    loose.length > 0
      ? html`<section class="initiative loose" aria-labelledby="initiative-none-title">
<h2 id="initiative-none-title">Without an initiative <span class="count">${loose.length}</span></h2>
${groupTasks(loose, 'Tasks without an initiative', options)}
${looseGraph ?? ''}
</section>`
      : ''
  const problems =
    state.problems.length > 0
      ? html`<section class="problems" aria-labelledby="roadmap-problems"><h2 id="roadmap-problems">Files left out</h2><ul>${state.problems.map((problem) => html`<li><code>${problem.path}</code>: ${problem.problem}</li>`)}</ul></section>`
      : ''
  return html`<div class="roadmap">${overview}${jump}${sections}${looseSection}${problems}</div>`
}
