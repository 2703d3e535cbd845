/** The site's request chain: the static files, then each page area's routes. */
import type {Middleware} from 'koa'
import compose from 'koa-compose'
import type {SiteAssets} from '../assets.js'
import type {SiteArea} from '../types.js'
import {assetMiddleware} from './assets.js'

export function siteChain(assets: SiteAssets, areas: SiteArea[]): Middleware {
  return compose([assetMiddleware(assets), ...areas.map((area) => area.middleware)]) as Middleware
}
