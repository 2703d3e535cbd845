/**
 * The frame of every site page: landmarks (banner, navigation, main,
 * contentinfo), a skip link, the stylesheets and deferred scripts by their
 * hashed names, and nothing inline (the CSP allows no inline style or script).
 */
import type {SiteAssets} from './assets.js'
import {html, type Html, PAGE_HEAD_META} from './html.js'

export type SiteSection = 'network' | 'clusters' | 'resources' | 'agent'

export interface PageOptions {
  /** The document title (the site's name is appended). */
  title: string
  /** The navigation entry marked current. */
  section?: SiteSection
  /** The content of `<main>`. */
  main: Html
  /** Stylesheets after base.css, by asset name (`network.css`). */
  styles?: string[]
  /** Scripts by asset name, loaded with `defer` after site.js (the helpers every page's script shares) and live.js (the one event stream all tabs share). */
  scripts?: string[]
  /** `<meta name="description">`. */
  description?: string
}

const NAV: Array<{section: SiteSection; href: string; label: string}> = [
  {section: 'network', href: '/network', label: 'Network'},
  {section: 'clusters', href: '/clusters', label: 'Clusters'},
  {section: 'resources', href: '/resources', label: 'Resources'},
]

export function renderPage(assets: SiteAssets, options: PageOptions): string {
  const nav = NAV.map(
    (item) => html`<li><a href="${item.href}"${item.section === options.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  )
  return html`<!doctype html>
<html lang="en">
<head>
${PAGE_HEAD_META}
<title>${options.title} · mesh</title>
${options.description ? html`<meta name="description" content="${options.description}">` : ''}
<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.url('base.css')}">
${(options.styles ?? []).map((name) => html`<link rel="stylesheet" href="${assets.url(name)}">`)}
${options.scripts?.length ? ['site.js', 'live.js', ...options.scripts].map((name) => html`<script defer src="${assets.url(name)}"></script>`) : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="/network">mesh</a>
<nav aria-label="Site"><ul>${nav}</ul></nav>
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
<footer class="site"><p>Served by a <a href="/resources">mesh</a> registry · <a href="/standard/version">standard version</a></p></footer>
</body>
</html>
`.value
}
