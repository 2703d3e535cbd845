/**
 * A task opened from the board (issue 22; docs/ide.md, Board): its
 * frontmatter, its dependencies both ways, its `## Resolution`, its commits
 * and the conversation that resolved it, and its body rendered from
 * markdown — safe by construction: every value goes through the escaping
 * template, the markdown renderer passes no raw HTML and links only
 * absolute http(s) addresses (src/http/markdown.ts). Served as a fragment
 * the board puts into its task dialog.
 */
import {html, type Html} from '../../../http/html.js'
import {headingText, markdownTokens, renderTokens} from '../../../http/markdown.js'
import {splitFrontmatter} from '../../../standard/frontmatter.js'
import {findTask, summarize, taskRecordOf, type TaskRecord} from '../../../standard/tasks/index.js'
import {readTaskBytes} from '../../../standard/tasks/task-files.js'
import {daemonTaskError} from '../../tasks/index.js'

/** Frontmatter values as a person reads them: lists joined, anything else as YAML would show it. */
const shown = (value: unknown): string => (Array.isArray(value) ? value.map(shown).join(', ') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value))

/**
 * The body without its `## Resolution` section, and that section's content
 * (spec: Task file — reserved, written by the daemon). Split on markdown's
 * own tokens, so a heading inside a code block is text, as it is for the
 * daemon's writer (src/daemon/chat/resolution/section.ts).
 */
function splitResolution(body: string): {body: Html; resolution: Html | null} {
  const tokens = markdownTokens(body)
  const start = tokens.findIndex((token, index) => token.type === 'heading_open' && token.tag === 'h2' && headingText(tokens, index).trim() === 'Resolution')
  if (start === -1) return {body: renderTokens(tokens), resolution: null}
  const after = tokens.findIndex((token, index) => index > start && token.type === 'heading_open' && (token.tag === 'h1' || token.tag === 'h2'))
  const end = after === -1 ? tokens.length : after
  // heading_open, inline, heading_close: the section's content starts after them.
  return {body: renderTokens([...tokens.slice(0, start), ...tokens.slice(end)]), resolution: renderTokens(tokens.slice(start + 3, end))}
}

const taskButton = (id: string, label: Html | string) => html`<button type="button" class="link" data-open="${id}">${label}</button>`

function dependencyItem(id: string, byId: Map<string, TaskRecord>): Html {
  const record = byId.get(id)
  if (!record) return html`<li><span class="id">${id}</span> — no task has this id</li>`
  const summary = summarize(record)
  return html`<li>${taskButton(id, html`<span class="id">${id}</span> ${summary.title}`)} <span class="status">[${summary.status || 'no status'}${record.archived ? ', archived' : ''}]</span></li>`
}

const list = (ids: string[], byId: Map<string, TaskRecord>, none: string) => (ids.length === 0 ? html`<p class="hint">${none}</p>` : html`<ul>${ids.map((id) => dependencyItem(id, byId))}</ul>`)

/** The task's view as an HTML fragment: the dialog's heading and body. */
export async function renderTaskView(root: string, records: TaskRecord[], id: string): Promise<string> {
  let found: TaskRecord
  try {
    found = await findTask(root, id, records)
  } catch (error) {
    throw daemonTaskError(error)
  }
  const text = (await readTaskBytes(root, found)).toString('utf8')
  // The file as it is now, frontmatter and body alike: a hand edit the index has not heard of yet shows.
  const record = taskRecordOf(root, found, () => text)
  const summary = summarize(record)
  const {body, resolution} = splitResolution(splitFrontmatter(text).body)
  const byId = new Map<string, TaskRecord>()
  // Active files win over archived ones, as for findTask.
  for (const candidate of [...records].sort((a, b) => Number(a.archived) - Number(b.archived))) if (!byId.has(candidate.id)) byId.set(candidate.id, candidate)
  const neededBy = records.filter((other) => other !== found && summarize(other).depends_on.includes(record.id)).map((other) => other.id)
  const commits = Array.isArray(record.data.commit_shas) ? record.data.commit_shas.map(String) : []
  const conversation = typeof record.data.resolved_by_conv === 'string' ? record.data.resolved_by_conv : null
  return html`<div class="dialog-head"><h2 id="task-dialog-title"><span class="id">${record.id}</span> ${summary.title || '(no title)'}</h2><button type="button" class="quiet" data-close>Close</button></div>
<div class="dialog-body">
${summary.problem ? html`<p class="badge problem">This file cannot be read: ${summary.problem}</p>` : ''}
<dl class="fields">
${Object.entries(record.data).map(([key, value]) => html`<dt>${key}</dt><dd>${shown(value)}</dd>`)}
<dt>file</dt><dd><code>${record.relativePath}</code></dd>
</dl>
<section class="deps" aria-label="Dependencies">
<div><h3>Depends on</h3>${list(summary.depends_on, byId, 'Nothing.')}</div>
<div><h3>Needed by</h3>${list(neededBy, byId, 'No task depends on it.')}</div>
</section>
${resolution ? html`<section aria-labelledby="task-resolution"><h3 id="task-resolution">Resolution</h3><div class="resolution">${resolution}</div></section>` : ''}
${commits.length > 0 || conversation ? html`<section aria-labelledby="task-work"><h3 id="task-work">Work</h3>
${conversation ? html`<p>Resolved in the conversation <code>${conversation}</code>${typeof record.data.resolved_by === 'string' ? html` by ${record.data.resolved_by}` : ''}.</p>` : ''}
${commits.length > 0 ? html`<p>Commits:</p><ul>${commits.map((sha) => html`<li><code>${sha}</code></li>`)}</ul>` : ''}
</section>` : ''}
<section class="task-body" aria-labelledby="task-description"><h3 id="task-description">Description</h3>${body}</section>
</div>`.value
}
