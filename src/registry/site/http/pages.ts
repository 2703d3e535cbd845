/** Writing a page: the site's headers, HTML type, and the HTML not-found page. */
import type {Context} from 'koa'
import type {SiteAssets} from '../assets.js'
import {PAGE_CACHE_CONTROL, SITE_HEADERS} from '../constants.js'
import {html} from '../html.js'
import {renderPage, type SiteSection} from '../layout.js'

/** True when the request prefers HTML over JSON (a browser); `Vary: Accept` is set either way. */
export function wantsHtml(ctx: Context): boolean {
  ctx.vary('Accept')
  return ctx.accepts('json', 'html') === 'html'
}

export function sendPage(ctx: Context, page: string, status = 200) {
  ctx.status = status
  ctx.set(SITE_HEADERS)
  ctx.set('Cache-Control', PAGE_CACHE_CONTROL)
  ctx.type = 'text/html; charset=utf-8'
  ctx.body = page
}

/** A 404 a person can read, with the way back. */
export function sendNotFoundPage(
  ctx: Context,
  assets: SiteAssets,
  options: {title: string; message: string; section?: SiteSection; back?: {href: string; label: string}},
) {
  const back = options.back ?? {href: '/network', label: 'Back to the network'}
  const main = html`<h1>${options.title}</h1><p>${options.message}</p><p><a href="${back.href}">${back.label}</a></p>`
  sendPage(ctx, renderPage(assets, {title: options.title, section: options.section, main}), 404)
}
