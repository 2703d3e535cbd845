/**
 * The Project view (issue 22, deliverable 5; docs/ide.md, Project): the
 * daemon's health and warnings, versions, `mesh validate` with links to the
 * files, the links registry (view and edit), storage, snapshots (list,
 * restore, undo), the debug stream live, and the timeline by day. The shell
 * is rendered here, one section each; the scripts fill them from the
 * daemon's routes and keep them current (`project.js` holds the page's one
 * `/events` socket and passes its events on to the others).
 */
import {html, type Html} from '../../../http/html.js'
import type {StaticAssets} from '../../../http/static-assets.js'
import {readClusterInfo} from '../../../standard/tasks/index.js'
import type {DaemonContext} from '../../context.js'
import {DEBUG_LEVELS} from '../../debug-stream.js'
import {installedVersionNow} from '../../standard-check/check.js'
import {renderIdePage} from '../frame.js'

/** The links registry's keys a patch may set (docs/daemon-api.md, Links), by block, in the spec's order. */
export const LINK_FIELDS = {
  local: ['url', 'command', 'health'],
  prod: ['url', 'provider', 'project', 'region', 'deploy_command', 'deployed_version', 'deployed_sha', 'deployed_at', 'deployed_by'],
  repo: ['branch', 'head_sha', 'version'],
} as const

const section = (id: string, title: string, body: Html, actions: Html | '' = '') =>
  html`<section class="panel" id="${id}" aria-labelledby="${id}-title">
<div class="panel-head"><h2 id="${id}-title">${title}</h2>${actions}</div>
${body}
</section>`

const refresh = (what: string, label: string) => html`<button type="button" class="quiet" data-refresh="${what}" aria-label="Refresh ${label}">Refresh</button>`

const MAIN = html`<h1>Project</h1>
<nav class="jump" aria-label="Sections"><ul>
<li><a href="#health">Health</a></li><li><a href="#versions">Versions</a></li><li><a href="#validation">Validation</a></li><li><a href="#links">Links</a></li><li><a href="#storage">Storage</a></li><li><a href="#snapshots">Snapshots</a></li><li><a href="#debug">Debug stream</a></li><li><a href="#timeline">Timeline</a></li>
</ul></nav>
<div class="panels">
${section('health', 'Health and warnings', html`<div id="health-body" aria-live="polite"><p class="hint">Reading <code>/health</code>…</p></div>`, refresh('health', 'health and warnings'))}
${section('versions', 'Versions', html`<div id="versions-body"><p class="hint">Reading…</p></div>`)}
${section('validation', 'Validation', html`<p class="hint">Runs <code>mesh validate</code> on the project (said in the debug stream under <code>ux.validation</code>); each finding links to its file and line.</p>
<p><button type="button" id="validate">Run mesh validate</button></p>
<div id="validation-body" aria-live="polite"></div>`)}
${section('links', 'Links', html`<p class="hint">The deployment links registry, <code>.mesh/public/links.yaml</code>: where each module runs, deploys and which version it is at. Edit writes through the daemon (comments kept, the previous file snapshotted).</p><div id="links-body"><p class="hint">Reading…</p></div>`, refresh('links', 'the links'))}
${section('storage', 'Storage', html`<div id="storage-body"><p class="hint">Reading…</p></div>`, refresh('storage', 'storage'))}
${section('snapshots', 'Snapshots', html`<p class="hint">The copies the daemon keeps before it rewrites a file. Restoring one keeps the bytes it replaces as a new snapshot: Undo brings them back.</p>
<form class="toolbar" id="snapshot-form"><label>File <select id="snapshot-file"><option value="">Reading…</option></select></label></form>
<div id="snapshot-notice" class="notice-region" role="status" data-kind="info"></div>
<div id="snapshots-body"></div>`, refresh('snapshots', 'the snapshots'))}
${section('debug', 'Debug stream', html`<form class="toolbar" id="debug-filters" role="search" aria-label="Filter the debug stream">
<label>Level at least <select id="debug-level">${DEBUG_LEVELS.map((level) => html`<option value="${level}"${level === 'info' ? html` selected` : ''}>${level}</option>`)}</select></label>
<label class="grow">Tags <input type="search" id="debug-tags" placeholder="ux, state, git.pull" autocomplete="off" aria-describedby="debug-tags-hint"></label>
<label class="check"><input type="checkbox" id="debug-pause"> Pause</label>
</form>
<p class="hint" id="debug-tags-hint">A comma list; a tag also matches its dotted sub-tags (<code>ux</code> matches <code>ux.validation</code>). The last 30 minutes, newest first, followed live.</p>
<p class="summary" id="debug-summary" aria-live="polite"></p>
<div class="table-scroll log-scroll" tabindex="0" role="region" aria-label="Debug events"><table class="log" id="debug-log"><thead><tr><th scope="col">Time</th><th scope="col">Level</th><th scope="col">Tag</th><th scope="col">Source</th><th scope="col">Message</th></tr></thead><tbody></tbody></table></div>`)}
${section('timeline', 'Timeline', html`<form class="toolbar" id="timeline-form"><label>Day (UTC) <select id="timeline-day"><option value="">Reading…</option></select></label><label class="grow">Type or text <input type="search" id="timeline-filter" autocomplete="off" placeholder="chat.assistant.final, #API2…"></label></form>
<p class="summary" id="timeline-summary" aria-live="polite"></p>
<div class="table-scroll log-scroll" tabindex="0" role="region" aria-label="Timeline events"><table class="log" id="timeline-log"><thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Author</th><th scope="col">Text</th></tr></thead><tbody></tbody></table></div>`)}
</div>`

const LINK_DIALOG = html`<dialog id="link-dialog" aria-labelledby="link-dialog-title">
<div class="dialog-head"><h2 id="link-dialog-title">Links of a module</h2></div>
<div class="dialog-body">
<div id="link-notice" class="notice-region" role="alert"></div>
<form id="link-form" class="create">
${Object.entries(LINK_FIELDS).map(([block, keys]) => html`<fieldset class="link-block"><legend>${block}</legend>${keys.map((key) => html`<label for="link-${block}-${key}">${key}</label><input id="link-${block}-${key}" data-block="${block}" data-key="${key}" autocomplete="off">`)}</fieldset>`)}
<p class="hint">An emptied field is removed from the file; fields left as they were are not sent.</p>
<div class="buttons"><button type="button" class="quiet" data-close>Cancel</button><button type="submit">Save</button></div>
</form>
</div>
</dialog>`

async function projectData(context: DaemonContext, file: string | undefined) {
  const cluster = await readClusterInfo(context.root).catch(() => ({modules: []}))
  return {
    modules: cluster.modules.map((module) => module.id),
    standard_installed: installedVersionNow(context.root),
    // A file to show the snapshots of at once (the file view's link).
    file: file ?? null,
  }
}

export async function renderProjectPage(context: DaemonContext, assets: StaticAssets, csrf: string, file?: string): Promise<string> {
  return renderIdePage(assets, {
    title: 'Project',
    projectId: context.projectId(),
    view: 'project',
    csrf,
    stylesheets: ['project.css'],
    main: MAIN,
    after: LINK_DIALOG,
    scripts: ['project-checks.js', 'project-history.js', 'project.js'],
    data: await projectData(context, file),
  })
}
