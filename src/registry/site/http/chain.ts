/**
 * The site's request chain: a browser's `/` goes to the network page, then
 * the static files, then each page area's routes. A page that fails answers
 * a person with an HTML page of the same status and message the API would
 * give (answerError's one table), never a JSON body in the browser.
 */
import type {Context, Middleware, Next} from 'koa'
import compose from 'koa-compose'
import {answerError} from '../../../http/error-middleware.js'
import {nameRoute} from '../../../http/metrics.js'
import type {Logger} from '../../../lib/log.js'
import type {SiteAssets} from '../assets.js'
import {html} from '../html.js'
import {renderPage} from '../layout.js'
import type {SiteArea} from '../types.js'
import {assetMiddleware} from './assets.js'
import {sendPage, wantsHtml} from './pages.js'

/** A person opening the registry's address lands on the network; API clients keep the JSON 404. */
async function home(ctx: Context, next: Next) {
  if (ctx.path === '/' && ctx.method === 'GET' && wantsHtml(ctx)) return ctx.redirect('/network')
  return next()
}

/**
 * Runs an area; an error it throws itself (not one from the routes after it)
 * becomes an HTML error page for a browser.
 */
function withErrorPage(area: SiteArea, assets: SiteAssets, logger: Logger): Middleware {
  return async (ctx, next) => {
    let passedOn = false
    try {
      await area.middleware(ctx, () => {
        passedOn = true
        return next()
      })
      // The area answered: its name is the route's label (its paths carry agent ids and cluster names).
      if (!passedOn) nameRoute(ctx, `site:${area.name}`)
    } catch (error) {
      if (passedOn || !wantsHtml(ctx)) throw error
      answerError(ctx, error, logger, `site page failed (${area.name})`)
      const message = (ctx.body as {error?: {message?: string}} | undefined)?.error?.message ?? 'Internal server error'
      const title = ctx.status >= 500 ? 'Something went wrong' : 'This page cannot be shown'
      const main = html`<h1>${title}</h1><p>${message}</p><p><a href="/network">Back to the network</a></p>`
      sendPage(ctx, renderPage(assets, {title, main}), ctx.status)
    }
  }
}

export function siteChain(assets: SiteAssets, areas: SiteArea[], logger: Logger): Middleware {
  return compose([home, assetMiddleware(assets), ...areas.map((area) => withErrorPage(area, assets, logger))]) as Middleware
}
