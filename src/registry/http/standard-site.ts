/**
 * The standard's site on the registry (spec "project standard and daemon",
 * what the service does 4–5): `/standard/version` (one integer and a
 * newline, what parseCanonicalVersion reads), `/standard/CHANGELOG.md`
 * (entries headed `## v<N>`, what parseChangelog reads) and `/resources`
 * (markdown for `Accept: text/markdown` or `?format=md`, else a small HTML
 * page). Texts are fixed at start (shipped, or `--site-dir`), so each body
 * and its ETag are computed once.
 */
import {createHash} from 'node:crypto'
import type Router from '@koa/router'
import type {Context} from 'koa'
import type {StandardSite} from '../../standard/site.js'
import {escapeHtml, SITE_PAGE_HEADERS} from './site-page.js'

/** Clients may cache for five minutes and revalidate with the ETag after. */
const CACHE_CONTROL = 'public, max-age=300'

interface Body {
  text: string
  type: string
  etag: string
}

const body = (text: string, type: string): Body => ({text, type, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`})

/** Writes a fixed body with its ETag; a matching If-None-Match gets 304. */
function send(koa: Context, answer: Body) {
  koa.set('Access-Control-Allow-Origin', '*')
  koa.set('Cache-Control', CACHE_CONTROL)
  koa.set('ETag', answer.etag)
  koa.status = 200
  if (koa.fresh) {
    koa.status = 304
    return
  }
  koa.type = answer.type
  koa.body = answer.text
}

/** HTTP(S) URLs in a line become links (trailing sentence punctuation stays text); everything else is escaped text. */
function inline(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>()"'`]*[^\s<>()"'`.,;:!?])/)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}" rel="nofollow noopener">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('')
}

/**
 * The markdown as HTML: headings, list items and paragraphs, links for bare
 * URLs, HTML comments dropped, every value escaped. Deliberately this small
 * subset (no markdown library): the page is the operator's short list of
 * links; a richer page is later work (issue 12).
 */
export function renderResourcesPage(markdown: string): string {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/)
  const out: string[] = []
  let list = false
  let title = 'Network resources'
  const closeList = () => {
    if (list) out.push('</ul>')
    list = false
  }
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const item = /^\s*[-*]\s+(.*)$/.exec(line)
    if (heading) {
      closeList()
      const level = heading[1].length
      if (level === 1 && out.length === 0) title = heading[2].trim()
      out.push(`<h${level}>${inline(heading[2].trim())}</h${level}>`)
    } else if (item) {
      if (!list) out.push('<ul>')
      list = true
      out.push(`<li>${inline(item[1])}</li>`)
    } else if (line.trim()) {
      closeList()
      out.push(`<p>${inline(line.trim())}</p>`)
    } else closeList()
  }
  closeList()
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · mesh</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f;background:#fff}
a{color:#0b57d0;word-break:break-all}footer{color:#555;margin-top:2rem;font-size:13px}
@media (prefers-color-scheme:dark){body{color:#e6e6ea;background:#16161a}a{color:#8ab4f8}footer{color:#aaa}}
</style>
</head>
<body>
<main>
${out.join('\n')}
</main>
<footer><a href="/resources?format=md">markdown</a> · <a href="/standard/version">standard version</a> · <a href="/standard/CHANGELOG.md">changelog</a></footer>
</body>
</html>
`
}

/** Adds the three routes to the registry's router (routes.ts). */
export function addStandardSiteRoutes(router: Router, site: StandardSite) {
  const version = body(`${site.version}\n`, 'text/plain; charset=utf-8')
  const changelog = body(site.changelog, 'text/markdown; charset=utf-8')
  const resourcesMd = body(site.resources, 'text/markdown; charset=utf-8')
  const resourcesHtml = body(renderResourcesPage(site.resources), 'text/html; charset=utf-8')

  router.get('/standard/version', (koa) => send(koa, version))
  router.get('/standard/CHANGELOG.md', (koa) => send(koa, changelog))
  router.get('/resources', (koa) => {
    koa.vary('Accept')
    const markdown = koa.query.format === 'md' || koa.accepts('text/html', 'text/markdown') === 'text/markdown'
    if (markdown) return send(koa, resourcesMd)
    koa.set(SITE_PAGE_HEADERS)
    send(koa, resourcesHtml)
  })
}
