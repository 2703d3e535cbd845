/**
 * The standard's area of the site: `/resources` for a browser, the
 * canonical resources page (`deps.standard.resources`, shipped or the
 * operator's `--site-dir` file) rendered in the site's frame. Markdown
 * readers (`?format=md`, `Accept: text/markdown`, clients without a
 * preference) and `/standard/version`, `/standard/CHANGELOG.md` stay with
 * the registry's core route (src/registry/http/standard-site.ts).
 */
import {createHash} from 'node:crypto'
import {html} from '../html.js'
import {renderPage} from '../layout.js'
import type {SiteArea, SiteDeps} from '../types.js'
import {renderMarkdown} from './markdown.js'
import {standardRoutes} from './routes.js'

/** A page fixed at start, and its strong ETag. */
export interface FixedPage {
  page: string
  etag: string
}

/** The `/resources` page: the markdown as HTML with links to its raw forms. */
export function renderResourcesPage(deps: Pick<SiteDeps, 'assets' | 'standard'>): FixedPage {
  const {title, body} = renderMarkdown(deps.standard.resources)
  const main = html`<article class="resources">
${body}
</article>
<p class="muted">This page as <a href="/resources?format=md">markdown</a> · the standard's <a href="/standard/version">version</a> and <a href="/standard/CHANGELOG.md">changelog</a></p>`
  const page = renderPage(deps.assets, {
    title: title?.trim() || 'Network resources',
    section: 'resources',
    main,
    description: "The registry's canonical resources page: where the hub, its docs and the mesh standard live.",
  })
  return {page, etag: `"${createHash('sha256').update(page).digest('base64url').slice(0, 27)}"`}
}

export function createStandardPages(deps: SiteDeps): SiteArea {
  // The texts are fixed at start; the page is made on first use (after every asset was added).
  let resources: FixedPage | undefined
  return {name: 'standard', middleware: standardRoutes(() => (resources ??= renderResourcesPage(deps)))}
}
