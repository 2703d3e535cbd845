/** The site's request chain: a browser's `/` goes to the network page, then the static files, then each page area's routes. */
import type {Context, Middleware, Next} from 'koa'
import compose from 'koa-compose'
import type {SiteAssets} from '../assets.js'
import type {SiteArea} from '../types.js'
import {assetMiddleware} from './assets.js'
import {wantsHtml} from './pages.js'

/** A person opening the registry's address lands on the network; API clients keep the JSON 404. */
async function home(ctx: Context, next: Next) {
  if (ctx.path === '/' && ctx.method === 'GET' && wantsHtml(ctx)) return ctx.redirect('/network')
  return next()
}

export function siteChain(assets: SiteAssets, areas: SiteArea[]): Middleware {
  return compose([home, assetMiddleware(assets), ...areas.map((area) => area.middleware)]) as Middleware
}
