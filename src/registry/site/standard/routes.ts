/** `GET /resources` for browsers (HTML, ETag/304); everything else goes on to the core routes. */
import type {Context, Next} from 'koa'
import {sendPage, wantsHtml} from '../http/pages.js'
import type {FixedPage} from './area.js'

export function standardRoutes(resources: () => FixedPage) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== '/resources' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next()
    // Markdown readers (`?format=md`, `Accept: text/markdown`, curl's */*) get the file from the core route.
    if (ctx.query.format === 'md' || !wantsHtml(ctx)) return next()
    const {page, etag} = resources()
    sendPage(ctx, page)
    ctx.set('ETag', etag)
    if (ctx.fresh) ctx.status = 304
  }
}
