/**
 * The frame of every IDE page: landmarks (banner, navigation, main), a skip
 * link, the stylesheets and deferred scripts by their hashed names, the
 * session's CSRF token in a `<meta>` for the page's own calls, and the
 * view's data as a JSON block. Nothing inline runs: the CSP allows no inline
 * script or style.
 */
import {html, scriptJson, type Html, PAGE_HEAD_META} from '../../http/html.js'
import type {StaticAssets} from '../../http/static-assets.js'

export type IdeView = 'board' | 'roadmap' | 'team' | 'project'

export interface IdePage {
  /** The document title (`· mesh IDE` is appended). */
  title: string
  /** cluster.yaml `id`, shown in the banner. */
  projectId: string | null
  /** The navigation entry marked current; none on the login pages. */
  view?: IdeView
  main: Html
  /** The session's CSRF token: only on the pages of a logged-in browser. */
  csrf?: string
  /** Stylesheets by asset name, after ide.css (a view's own). */
  stylesheets?: string[]
  /** Scripts by asset name, loaded with `defer` after ide.js (the helpers every view shares). */
  scripts?: string[]
  /** The view's data, read by its script from `#ide-data`. */
  data?: unknown
  /** Markup after `<main>` (dialogs). */
  after?: Html
}

const VIEWS: Array<{view: IdeView; href: string; label: string}> = [
  {view: 'board', href: '/', label: 'Board'},
  {view: 'roadmap', href: '/ide/roadmap', label: 'Roadmap'},
  {view: 'team', href: '/ide/team', label: 'Team'},
  {view: 'project', href: '/ide/project', label: 'Project'},
]

export function renderIdePage(assets: StaticAssets, page: IdePage): string {
  const loggedIn = page.csrf !== undefined
  const nav = VIEWS.map((item) => html`<li><a href="${item.href}"${item.view === page.view ? html` aria-current="page"` : ''}>${item.label}</a></li>`)
  return html`<!doctype html>
<html lang="en">
<head>
${PAGE_HEAD_META}
<meta name="referrer" content="no-referrer">
${loggedIn ? html`<meta name="mesh-csrf" content="${page.csrf}">` : ''}
<title>${page.title} · mesh IDE</title>
<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.url('ide.css')}">
${(page.stylesheets ?? []).map((name) => html`<link rel="stylesheet" href="${assets.url(name)}">`)}
${loggedIn ? ['ide.js', ...(page.scripts ?? [])].map((name) => html`<script defer src="${assets.url(name)}"></script>`) : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
<p class="brand">mesh IDE${page.projectId ? html` <span class="project">· ${page.projectId}</span>` : ''}</p>
${loggedIn ? html`<nav aria-label="Views"><ul>${nav}</ul></nav>
<p id="live" class="live" role="status" data-state="connecting">Connecting…</p>
<button type="button" id="logout" class="quiet">Log out</button>` : ''}
</header>
<main id="main" tabindex="-1">
<div id="notice" class="notice-region" role="alert"></div>
<p id="announce" class="visually-hidden" aria-live="polite"></p>
${page.main}
</main>
${page.after ?? ''}
${page.data === undefined ? '' : html`<script type="application/json" id="ide-data">${scriptJson(page.data)}</script>`}
</body>
</html>
`.value
}

/** A page for a browser without a session, or with a refused login: what happened and what to run. */
export function renderNoticePage(assets: StaticAssets, notice: {title: string; projectId: string | null; lines: Html[]}): string {
  return renderIdePage(assets, {
    title: notice.title,
    projectId: notice.projectId,
    main: html`<section class="notice"><h1>${notice.title}</h1>${notice.lines.map((line) => html`<p>${line}</p>`)}</section>`,
  })
}
