/** `GET /agent/<id>` for browsers; JSON clients (and every other path) go on to the core route. */
import type {Context, Next} from 'koa'
import type {SiteAssets} from '../assets.js'
import {clip} from '../html.js'
import {sendNotFoundPage, sendPage, wantsHtml} from '../http/pages.js'

const AGENT_PATH = /^\/agent\/([^/]+)\/?$/

/** The page for a decoded id, or null when there is no such agent (or the id breaks the agent-id rule). */
export type AgentPageSource = (agentId: string) => Promise<string | null>

export function agentRoutes(assets: SiteAssets, page: AgentPageSource) {
  return async (ctx: Context, next: Next) => {
    const match = AGENT_PATH.exec(ctx.path)
    if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || !wantsHtml(ctx)) return next()
    let agentId: string
    try {
      agentId = decodeURIComponent(match[1])
    } catch {
      agentId = match[1]
    }
    const body = await page(agentId)
    if (body !== null) return sendPage(ctx, body)
    sendNotFoundPage(ctx, assets, {
      title: 'No such agent',
      message: `No agent "${clip(agentId, 80)}" is registered here. Agent ids are 3 to 64 letters, digits, _ or -.`,
      section: 'network',
    })
  }
}
