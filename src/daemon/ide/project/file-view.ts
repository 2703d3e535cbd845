/**
 * A project file as the Project view's links open it (`GET /ide/file?path=`;
 * docs/ide.md, Project): its text with line numbers, the line a validation
 * finding names highlighted (`#L<n>`, CSS `:target`), read-only. The files
 * `mesh validate` reads — `mesh.json`, `.gitignore` and `.mesh/` — except the
 * folders that hold secrets or belong to the daemon (`credentials/`,
 * `agents/`, `.runtime/`, `snapshots/`). Read through the no-link helpers:
 * a link is never followed. Every line is escaped.
 */
import {html, type Html} from '../../../http/html.js'
import type {StaticAssets} from '../../../http/static-assets.js'
import {readContainedText} from '../../../lib/contained-files.js'
import {isMeshError} from '../../../lib/errors.js'
import type {DaemonContext} from '../../context.js'
import {toMeshRelative} from '../../snapshots/paths.js'
import {renderIdePage} from '../frame.js'

/** Files of the repository root the view shows besides `.mesh/` (those `mesh validate` reads). */
const ROOT_FILES = new Set(['mesh.json', '.gitignore'])
/** Top folders of `.mesh/` never shown: secrets, per-machine identities, the daemon's own files. */
const HIDDEN = new Set(['credentials', 'agents', '.runtime', 'snapshots'])
/** A larger file shows its first part (a page over 500 KB is a bug). */
export const FILE_SHOWN_BYTES = 256 * 1024

type Shown = {path: string; meshRelative: string | null; text: string; cut: boolean} | {path: string; problem: string}

async function readShown(context: DaemonContext, input: string): Promise<Shown> {
  const path = input.replace(/^\.\//, '')
  if (ROOT_FILES.has(path)) {
    const text = await readContainedText(context.root, path).catch((error: unknown) => (isMeshError(error) ? error.message : null))
    return text === null ? {path, problem: 'there is no such file'} : {path, meshRelative: null, ...cut(text)}
  }
  let meshRelative: string
  try {
    meshRelative = toMeshRelative(context.root, path.startsWith('.mesh/') ? path : `.mesh/${path}`)
  } catch (error) {
    return {path, problem: isMeshError(error) ? error.message : 'not a project file'}
  }
  const top = meshRelative.split('/')[0]
  // Compared without case: on a case-insensitive disk (macOS) `.mesh/Credentials/` is the same folder.
  if (HIDDEN.has(top.toLowerCase())) return {path, problem: `files under .mesh/${top}/ are not shown here`}
  let text: string | null
  try {
    text = await readContainedText(context.meshPath(), meshRelative)
  } catch (error) {
    return {path, problem: isMeshError(error) ? error.message : 'it cannot be read'}
  }
  return text === null ? {path, problem: 'there is no such file'} : {path: `.mesh/${meshRelative}`, meshRelative, ...cut(text)}
}

const cut = (text: string) => (text.length > FILE_SHOWN_BYTES ? {text: text.slice(0, FILE_SHOWN_BYTES), cut: true} : {text, cut: false})

function lines(text: string): Html {
  const all = text.split('\n')
  if (all.length > 1 && all[all.length - 1] === '') all.pop()
  return html`${all.map((line, index) => html`<span class="line" id="L${index + 1}"><span class="ln" aria-hidden="true">${index + 1}</span>${line}
</span>`)}`
}

export async function renderFilePage(context: DaemonContext, assets: StaticAssets, csrf: string, input: string): Promise<{status: number; body: string}> {
  const shown = await readShown(context, input)
  const ok = 'text' in shown
  const snapshots = ok && shown.meshRelative ? html` · <a href="/ide/project?file=${encodeURIComponent(shown.meshRelative)}#snapshots">Snapshots of this file</a>` : ''
  const main = html`<h1>File <code>${shown.path}</code></h1>
<p><a href="/ide/project#validation">Back to the Project view</a>${snapshots}</p>
${ok
  ? html`${shown.cut ? html`<p class="hint">The file is larger than ${FILE_SHOWN_BYTES / 1024} KB: its beginning is shown.</p>` : ''}<pre class="file" tabindex="0" data-path="${shown.path}" aria-label="The text of ${shown.path}"><code>${lines(shown.text)}</code></pre>`
  : html`<p class="notice-region">This file cannot be shown: ${shown.problem}.</p>`}`
  const body = renderIdePage(assets, {title: shown.path, projectId: context.projectId(), view: 'project', csrf, stylesheets: ['project.css'], scripts: ['file.js'], main})
  return {status: ok ? 200 : 404, body}
}
