/**
 * The Roadmap view (issue 22, deliverable 3; docs/ide.md, Roadmap): the
 * initiatives with their progress, their tasks and dependency graphs, read
 * from `roadmap/state.json` — the file the daemon keeps current — and drawn
 * by the same renderer as `.mesh/architect/roadmap.html`
 * (src/daemon/state/roadmap-view.ts). `roadmap.js` fetches the view again
 * (`GET /ide/roadmap/fragment`) after each `state.rebuilt` that rewrote the file;
 * `task-dialog.js` opens a task as the board does.
 */
import {html, type Html} from '../../../http/html.js'
import type {StaticAssets} from '../../../http/static-assets.js'
import {readContainedText} from '../../../lib/contained-files.js'
import {computeRoadmap, type RoadmapState} from '../../../standard/roadmap/index.js'
import {ROADMAP_FORMAT, ROADMAP_STATE_JSON} from '../../../standard/roadmap/constants.js'
import type {DaemonContext} from '../../context.js'
import {renderRoadmapView} from '../../state/roadmap-view.js'
import {taskIndex} from '../../tasks/index.js'
import {renderIdePage} from '../frame.js'
import {TASK_DIALOG} from '../task-dialog.js'

/** The state the daemon last wrote; computed afresh when the file is missing, unreadable or of another format (a daemon that just started, a hand edit). */
async function roadmapState(context: DaemonContext): Promise<RoadmapState> {
  const text = await readContainedText(context.meshPath(), ROADMAP_STATE_JSON).catch(() => null)
  if (text) {
    try {
      const state = JSON.parse(text) as RoadmapState
      if (state?.format === ROADMAP_FORMAT && Array.isArray(state.tasks) && Array.isArray(state.initiatives) && Array.isArray(state.problems) && state.totals) return state
    } catch {
      // Torn or hand-edited: the next rebuild writes it right; meanwhile the files are read.
    }
  }
  return computeRoadmap(context.root, {records: await taskIndex(context).records()})
}

/** The view's content: the page's `<div id="roadmap">`, and `GET /ide/roadmap/fragment`'s answer. */
export async function renderRoadmapFragment(context: DaemonContext): Promise<Html> {
  return renderRoadmapView(await roadmapState(context), {links: 'ide'})
}

export async function renderRoadmapPage(context: DaemonContext, assets: StaticAssets, csrf: string): Promise<string> {
  return renderIdePage(assets, {
    title: 'Roadmap',
    projectId: context.projectId(),
    view: 'roadmap',
    csrf,
    stylesheets: ['roadmap.css'],
    main: html`<h1>Roadmap</h1>
<p class="hint">From <code>.mesh/roadmap/state.json</code>, which the daemon rewrites after every change of a task or an initiative; the same view is written to <code>.mesh/architect/roadmap.html</code> for reading without the daemon. Open a task with its id.</p>
<form class="toolbar" id="roadmap-filters" role="search" aria-label="Filter the roadmap">
<label class="grow">Text <input type="search" id="roadmap-filter" placeholder="id, title, status, module, owner, #initiative…" autocomplete="off" aria-describedby="roadmap-shown"></label>
</form>
<p class="summary" id="roadmap-shown" aria-live="polite"></p>
<div id="roadmap">${await renderRoadmapFragment(context)}</div>`,
    after: TASK_DIALOG,
    scripts: ['task-dialog.js', 'roadmap.js'],
  })
}
