/**
 * The `/network` page, rendered on the server and whole without
 * JavaScript: the counts, the search form and its results, the graph's
 * canvas (drawn by network.js) and, as its text alternative, the paged list
 * of every agent.
 */
import type {SearchResultItem} from '../../search/search-service.js'
import type {AgentRecord} from '../../types.js'
import type {SiteAssets} from '../assets.js'
import {badge, onlineState} from '../components.js'
import {CLIP} from '../constants.js'
import {clip, html, type Html} from '../html.js'
import {renderPage} from '../layout.js'
import {NO_BRAND, NO_CATEGORY} from './constants.js'
import {networkNode} from './model.js'

/** The search part of the page: absent when this node has no search service. */
export interface NetworkSearchView {
  query: string
  operationalOnly: boolean
  /** The results when a query was run. */
  results?: SearchResultItem[]
  /** A sentence for the person when the query could not be run. */
  error?: string
}

export interface NetworkPageInput {
  counts: {agents: number; online: number}
  agents: AgentRecord[]
  /** The cursor of the next page, or null on the last one. */
  nextCursor: string | null
  /** True when this is not the first page. */
  paged: boolean
  search?: NetworkSearchView
  nowMs: number
}

const agentHref = (id: string) => `/agent/${encodeURIComponent(id)}`

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`

function groupLabel(brand: string | null, category: string | null): Html {
  return html`<span class="group">${brand ?? html`<span class="muted">${NO_BRAND}</span>`} · ${category ?? html`<span class="muted">${NO_CATEGORY}</span>`}</span>`
}

function agentItem(record: AgentRecord, nowMs: number): Html {
  const node = networkNode(record, nowMs)
  return html`<li class="agent" data-agent-id="${node.id}" data-online="${String(node.online)}">
<a class="name" href="${agentHref(node.id)}">${node.name}</a>
${groupLabel(node.brand, node.category)}
${onlineState(node.online, node.last_seen, nowMs)}
</li>`
}

function searchForm(search: NetworkSearchView): Html {
  return html`<form class="search network-search" method="get" action="/network" role="search" aria-label="Search agents">
<label for="network-q">Search agents</label>
<input type="search" id="network-q" name="q" value="${search.query}" maxlength="1000" placeholder="what do you need done?">
<label class="check"><input type="checkbox" name="operational_only" value="1"${search.operationalOnly ? html` checked` : ''}> Operational only</label>
<button type="submit">Search</button>
</form>`
}

function searchResult(item: SearchResultItem): Html {
  return html`<li class="result" data-agent-id="${item.agent_id}">
<a class="name" href="${agentHref(item.agent_id)}">${clip(item.display_name, CLIP.name)}</a>
${item.category ? html`<span class="group">${clip(item.category, CLIP.name)}</span>` : ''}
${item.operational === true ? badge('operational', 'good', 'The last probe found its skills answering') : item.operational === false ? badge('not operational', 'bad', 'The last probe found a skill not answering') : ''}
${item.description ? html`<p class="description">${clip(item.description, CLIP.short)}</p>` : ''}
</li>`
}

/** The results block (also the live region the script fills). */
function searchResults(search: NetworkSearchView | undefined): Html {
  const body = !search
    ? ''
    : search.error
      ? html`<p class="notice" role="alert">${search.error}</p>`
      : search.results
        ? search.results.length === 0
          ? html`<h2 id="results-heading">No agent found</h2><p>No online agent matches “${clip(search.query, CLIP.short)}”${search.operationalOnly ? ' among the operational ones' : ''}.</p>`
          : html`<h2 id="results-heading">${plural(search.results.length, 'result')} for “${clip(search.query, CLIP.short)}”</h2>
<ol class="results">${search.results.map(searchResult)}</ol>`
        : ''
  return html`<section id="network-results" class="network-results" aria-live="polite">${body}</section>`
}

/** A page of the list, keeping the search the person ran. */
function pageHref(search: NetworkSearchView | undefined, cursor?: string): string {
  const params = new URLSearchParams()
  if (search?.query) params.set('q', search.query)
  if (search?.query && search.operationalOnly) params.set('operational_only', '1')
  if (cursor) params.set('cursor', cursor)
  const query = params.toString()
  return query ? `/network?${query}` : '/network'
}

export function renderNetworkPage(assets: SiteAssets, input: NetworkPageInput): string {
  const {counts, agents, nowMs} = input
  const main = html`<h1>Network</h1>
<p class="counts" id="network-counts"><strong data-count="agents">${counts.agents.toLocaleString('en')}</strong> ${counts.agents === 1 ? 'agent' : 'agents'} · <strong data-count="online">${counts.online.toLocaleString('en')}</strong> online</p>
${input.search ? searchForm(input.search) : ''}
${searchResults(input.search)}
<div class="network">
<figure class="graph" id="network-graph" data-graph="/network/graph.json" data-now-ms="${String(nowMs)}">
<canvas role="img" aria-label="Graph of the registry's agents, grouped by brand, then category; online agents are bright, offline ones dimmed. The list of agents is its text alternative." aria-describedby="agents-heading"><p>The graph needs JavaScript; the list of agents beside it shows the same agents.</p></canvas>
<figcaption class="muted">Circles are brands, the circles inside them categories, the dots agents. Bright: online; dimmed: offline.</figcaption>
<div class="graph-tip" role="status" hidden></div>
</figure>
<section class="agents" aria-labelledby="agents-heading">
<h2 id="agents-heading">Agents${input.paged ? ' (continued)' : ''}</h2>
${agents.length === 0 ? html`<p class="muted">${input.paged ? 'No more agents.' : 'No agent has registered yet.'}</p>` : html`<ol class="agent-list" id="agent-list">${agents.map((record) => agentItem(record, nowMs))}</ol>`}
<nav class="pager" aria-label="Agent list pages">
${input.paged ? html`<a href="${pageHref(input.search)}">First page</a>` : ''}
${input.nextCursor ? html`<a rel="next" href="${pageHref(input.search, input.nextCursor)}">Next agents</a>` : ''}
</nav>
</section>
</div>`
  return renderPage(assets, {
    title: 'Network',
    section: 'network',
    main,
    styles: ['network.css'],
    scripts: ['network.js'],
    description: `${plural(counts.agents, 'agent')}, ${counts.online} online, grouped by brand and category.`,
  })
}
