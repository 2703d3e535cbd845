/**
 * The board (issue 22, deliverable 2; docs/ide.md, Board): the shell is
 * rendered here — toolbar, the draft lane, the five status columns, the
 * dialogs — and the tasks travel in the page's data block, drawn by
 * `board.js` with DOM calls (no HTML strings), which also redraws them from
 * `GET /tasks` after task events. The daemon's task index serves the board
 * and the initiatives' titles.
 */
import {html} from '../../../http/html.js'
import type {StaticAssets} from '../../../http/static-assets.js'
import {TASK_PRIORITIES} from '../../../standard/constants.js'
import {listInitiatives} from '../../../standard/initiatives/index.js'
import {STATUS_WRITTEN_AS} from '../../../standard/tasks/constants.js'
import {readClusterInfo} from '../../../standard/tasks/index.js'
import type {DaemonContext} from '../../context.js'
import {boardOf, taskIndex} from '../../tasks/index.js'
import {listMembers} from '../../team/index.js'
import {renderIdePage} from '../frame.js'
import {TASK_DIALOG} from '../task-dialog.js'

/** The board's columns, left to right; `draft` has its lane above them, `other` shows only when a task needs it. */
export const COLUMNS = [
  {status: 'backlog', label: 'Backlog'},
  {status: 'next', label: 'Next'},
  {status: 'active', label: 'Active'},
  {status: 'blocked', label: 'Blocked'},
  {status: 'done', label: 'Done'},
] as const

const column = (status: string, label: string, hidden = false) =>
  html`<section class="column" data-status="${status}" aria-labelledby="col-${status}"${hidden ? html` hidden` : ''}>
<h2 id="col-${status}">${label} <span class="count" data-count="${status}"></span></h2>
<ul class="cards" data-status="${status}" aria-labelledby="col-${status}"></ul>
</section>`

const filter = (name: string, label: string) => html`<label>${label} <select id="filter-${name}" data-filter="${name}"><option value="">All</option></select></label>`

const MAIN = html`<h1>Board</h1>
<form class="toolbar" id="filters" role="search" aria-label="Filter tasks">
<label class="grow">Text <input type="search" id="filter-text" data-filter="text" placeholder="id, title, owner, tag…" autocomplete="off"></label>
${filter('module', 'Module')}
${filter('initiative', 'Initiative')}
${filter('owner', 'Owner')}
${filter('tag', 'Tag')}
<div class="actions">
<label>Move as <select id="move-as"><option value="operator">operator</option></select></label>
<button type="button" id="new-task">New task</button>
</div>
</form>
<p class="summary" id="summary" aria-live="polite"></p>
<p class="hint" id="board-help">Drag a card to another column, or focus it and press Space: the arrow keys choose the column, Space or Enter puts it there, Escape cancels. Enter opens the task.</p>
<section class="drafts" data-status="draft" aria-labelledby="col-draft">
<h2 id="col-draft">Drafts — waiting for the operator <span class="count" data-count="draft"></span></h2>
<ul class="cards" data-status="draft" aria-labelledby="col-draft"></ul>
</section>
<div class="columns" id="board">
${COLUMNS.map((entry) => column(entry.status, entry.label))}
${column('other', 'Other', true)}
</div>`

const STATUS_CHOICES = ['backlog', 'next', 'active', 'blocked', 'done', 'draft']

const DIALOGS = html`${TASK_DIALOG}
<dialog id="create-dialog" aria-labelledby="create-title">
<div class="dialog-head"><h2 id="create-title">New task</h2></div>
<div class="dialog-body">
<div id="create-notice" class="notice-region" role="alert"></div>
<form class="create" id="create-form">
<label for="create-task-title">Title</label><input id="create-task-title" name="title" required maxlength="200">
<label for="create-module">Module</label><select id="create-module" name="module" required></select>
<label for="create-status">Status</label><select id="create-status" name="status">${STATUS_CHOICES.map((status) => html`<option${status === 'backlog' ? html` selected` : ''}>${status}</option>`)}</select>
<label for="create-priority">Priority</label><select id="create-priority" name="priority">${TASK_PRIORITIES.map((priority) => html`<option${priority === 'medium' ? html` selected` : ''}>${priority}</option>`)}</select>
<label for="create-owner">Owner</label><input id="create-owner" name="owner" placeholder="architect" autocomplete="off">
<label for="create-initiative">Initiative</label><select id="create-initiative" name="initiative"><option value="">none</option></select>
<label for="create-depends">Depends on</label><input id="create-depends" name="depends_on" placeholder="API1, API2" autocomplete="off">
<label for="create-tags">Tags</label><input id="create-tags" name="tags" placeholder="ui, auth" autocomplete="off">
<div class="buttons"><button type="button" class="quiet" data-close>Cancel</button><button type="submit">Create</button></div>
</form>
</div>
</dialog>`

/** The data `board.js` starts from: the board, and the names the filters and the new-task form offer. */
async function boardData(context: DaemonContext) {
  const records = await taskIndex(context).records()
  const [cluster, initiatives, members] = await Promise.all([
    readClusterInfo(context.root).catch(() => ({modules: []})),
    listInitiatives(context.root, records),
    listMembers(context).catch(() => []),
  ])
  const board = boardOf(records, context.clock())
  return {
    // What a card shows, no more: the page stays small (about 250 bytes a task); GET /tasks brings the rest.
    tasks: board.tasks.map(({path: _path, created: _created, updated: _updated, completed_at: _completed, ...card}) => card),
    modules: cluster.modules.map((module) => ({id: module.id, name: module.name ?? module.id})),
    initiatives: initiatives.filter((initiative) => initiative.problem === undefined).map((initiative) => ({id: initiative.id, title: initiative.title})),
    members: members.filter((member) => member.problem === null).map((member) => member.id),
    // Status words the daemon accepts and the column each lands in (aliases: `planned` is next, `doing` active…).
    written_as: STATUS_WRITTEN_AS,
  }
}

export async function renderBoardPage(context: DaemonContext, assets: StaticAssets, csrf: string): Promise<string> {
  return renderIdePage(assets, {
    title: 'Board',
    projectId: context.projectId(),
    view: 'board',
    csrf,
    main: MAIN,
    after: DIALOGS,
    scripts: ['board-cards.js', 'board.js', 'task-dialog.js', 'board-dialogs.js'],
    data: await boardData(context),
  })
}
