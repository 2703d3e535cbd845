/**
 * What the network routes do, without Koa: the page's data (counts from the
 * model, one keyset page of the store, the search) and the event stream's
 * feed from the model.
 */
import type {SearchService} from '../../search/search-service.js'
import {parseSearchRequest} from '../../search/request.js'
import type {RegistryContext} from '../../types.js'
import type {SiteAssets} from '../assets.js'
import {NETWORK_PAGE_SIZE, SEARCH_RESULT_LIMIT} from './constants.js'
import type {NetworkModel} from './model.js'
import {renderNetworkPage, type NetworkSearchView} from './page.js'

export interface NetworkPageQuery {
  q?: string
  operationalOnly: boolean
  /** The decoded keyset cursor: the last agent id of the previous page. */
  after?: string
}

export interface NetworkPages {
  /** The whole HTML page. `encodeCursor` turns the page's last id into the next link's cursor. */
  page(query: NetworkPageQuery, encodeCursor: (after: string) => string): Promise<string>
}

export function createNetworkPageRenderer(options: {context: RegistryContext; model: NetworkModel; assets: SiteAssets; search?: SearchService}): NetworkPages {
  const {context, model, assets, search} = options

  async function runSearch(q: string | undefined, operationalOnly: boolean): Promise<NetworkSearchView | undefined> {
    if (!search) return undefined
    const query = q?.trim() ?? ''
    const view: NetworkSearchView = {query, operationalOnly}
    if (!query) return view
    let request
    try {
      request = parseSearchRequest({prompt: query, filters: {operational_only: operationalOnly, limit: SEARCH_RESULT_LIMIT}})
    } catch {
      return {...view, error: 'That search could not be read: keep it under 1,000 characters.'}
    }
    try {
      const response = await search.search(request)
      return {...view, results: response.results}
    } catch (error) {
      context.logger.warn('network page search failed', {error: String(error)})
      return {...view, error: 'Search is not available right now; the list below still shows every agent.'}
    }
  }

  return {
    async page(query, encodeCursor) {
      const [listed, searchView] = await Promise.all([
        context.store.listAgents({limit: NETWORK_PAGE_SIZE, after: query.after}),
        runSearch(query.q, query.operationalOnly),
      ])
      return renderNetworkPage(assets, {
        counts: model.counts(),
        agents: listed.agents,
        nextCursor: listed.nextAfter ? encodeCursor(listed.nextAfter) : null,
        paged: query.after !== undefined,
        search: searchView,
        nowMs: context.clock(),
      })
    },
  }
}
