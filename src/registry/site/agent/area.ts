/**
 * The agent area of the site: `/agent/<id>` for a browser, the page a
 * person reads before calling an agent (page.ts). Requests that prefer JSON
 * go on to the core route, which answers with the DiscoveryCard.
 */
import {AGENT_ID_PATTERN} from '../../constants.js'
import type {SiteArea, SiteDeps} from '../types.js'
import {renderAgentPage} from './page.js'
import {agentRoutes} from './routes.js'

export function createAgentPages(deps: SiteDeps): SiteArea {
  const {context, assets} = deps
  return {
    name: 'agent',
    middleware: agentRoutes(assets, async (agentId) => {
      if (!AGENT_ID_PATTERN.test(agentId)) return null
      const agent = await context.store.getAgent(agentId)
      return agent ? renderAgentPage(assets, {agent, nowMs: context.clock(), publicUrl: context.publicUrl}) : null
    }),
  }
}
