/**
 * The standard's site on the registry (spec "project standard and daemon",
 * what the service does 4–5): `/standard/version` (one integer and a
 * newline, what parseCanonicalVersion reads), `/standard/CHANGELOG.md`
 * (entries headed `## v<N>`, what parseChangelog reads) and `/resources`
 * as markdown. A browser's `/resources` (it prefers HTML) is answered
 * before this route by the site's standard area, in the site's frame
 * (src/registry/site/standard/). Texts are fixed at start (shipped, or
 * `--site-dir`), so each body and its ETag are computed once.
 */
import {createHash} from 'node:crypto'
import type Router from '@koa/router'
import type {Context} from 'koa'
import type {StandardSite} from '../../standard/site.js'

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

/** Adds the three routes to the registry's router (routes.ts). */
export function addStandardSiteRoutes(router: Router, site: StandardSite) {
  const version = body(`${site.version}\n`, 'text/plain; charset=utf-8')
  const changelog = body(site.changelog, 'text/markdown; charset=utf-8')
  const resources = body(site.resources, 'text/markdown; charset=utf-8')

  router.get('/standard/version', (koa) => send(koa, version))
  router.get('/standard/CHANGELOG.md', (koa) => send(koa, changelog))
  router.get('/resources', (koa) => {
    // The HTML page for browsers is the site's (it runs first); this answer is the same for every Accept it gets.
    koa.vary('Accept')
    send(koa, resources)
  })
}
