/** `GET /site/<name>.<hash>.<ext>`: the hashed static files, immutable, with ETag/304. */
import type {Context, Next} from 'koa'
import {nameRoute} from '../../../http/metrics.js'
import type {SiteAssets} from '../assets.js'
import {ASSET_CACHE_CONTROL, SITE_ASSET_PREFIX, SITE_HEADERS} from '../constants.js'

export function assetMiddleware(assets: SiteAssets) {
  return async (ctx: Context, next: Next) => {
    if (!ctx.path.startsWith(SITE_ASSET_PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next()
    const asset = assets.get(ctx.path)
    if (!asset) return next()
    nameRoute(ctx, `${SITE_ASSET_PREFIX}:asset`)
    ctx.set(SITE_HEADERS)
    ctx.set('Cache-Control', ASSET_CACHE_CONTROL)
    ctx.set('ETag', asset.etag)
    if (ctx.get('if-none-match') === asset.etag) {
      ctx.status = 304
      return
    }
    ctx.type = asset.type
    ctx.body = asset.body
  }
}
