/**
 * `/clusters`: the catalog of public clusters (name, topic, description,
 * online count, where), paged, with a world map of this page's clusters
 * that have a cluster-level `props.where`. Readable without JavaScript;
 * clusters.js adds new clusters' rows and moves the counts live.
 */
import type {PublicClusterSummary} from '../../../cluster/public-view.js'
import type {SiteAssets} from '../assets.js'
import {html, type Html} from '../html.js'
import {renderPage} from '../layout.js'
import {CATALOG_PAGE_SIZE, CLUSTER_CLIP} from './constants.js'
import {mapFigure, type WorldMap} from './map.js'
import {clipEscaped, clusterHref, clusterName, onlineCount, whereText} from './parts.js'

export interface CatalogPageInput {
  assets: SiteAssets
  map: WorldMap
  landUrl: string
  clusters: PublicClusterSummary[]
  count: number
  offset: number
}

function row(cluster: PublicClusterSummary): Html {
  return html`<tr data-cluster-id="${cluster.id}">
<td><a href="${clusterHref(cluster)}">${clipEscaped(clusterName(cluster), CLUSTER_CLIP.name, 2 * CLUSTER_CLIP.name)}</a></td>
<td>${cluster.topic ? clipEscaped(cluster.topic, CLUSTER_CLIP.topic, 2 * CLUSTER_CLIP.topic) : html`<span class="muted">—</span>`}</td>
<td>${cluster.description ? clipEscaped(cluster.description, CLUSTER_CLIP.catalogDescription, 2 * CLUSTER_CLIP.catalogDescription) : html`<span class="muted">—</span>`}</td>
<td class="where">${cluster.where ? clipEscaped(whereText(cluster.where), CLUSTER_CLIP.label, 2 * CLUSTER_CLIP.label) : html`<span class="muted">—</span>`}</td>
<td class="num">${onlineCount(cluster.id, cluster.online)}</td>
</tr>`
}

function pager(count: number, offset: number): Html {
  if (count <= CATALOG_PAGE_SIZE) return html``
  const previous = offset > 0 ? Math.max(0, offset - CATALOG_PAGE_SIZE) : null
  const next = offset + CATALOG_PAGE_SIZE < count ? offset + CATALOG_PAGE_SIZE : null
  const page = Math.floor(offset / CATALOG_PAGE_SIZE) + 1
  const pages = Math.ceil(count / CATALOG_PAGE_SIZE)
  return html`<nav class="pager" aria-label="Catalog pages">
${previous !== null ? html`<a href="/clusters${previous ? `?offset=${previous}` : ''}" rel="prev">← Newer clusters</a>` : ''}
<span>Page ${page} of ${pages} (clusters ${offset + 1}–${Math.min(offset + CATALOG_PAGE_SIZE, count)})</span>
${next !== null ? html`<a href="/clusters?offset=${next}" rel="next">Older clusters →</a>` : ''}
</nav>`
}

export function renderCatalogPage(input: CatalogPageInput): string {
  const {clusters, count, offset} = input
  const located = clusters.filter((c) => c.where)
  const map = mapFigure(input.map, input.landUrl, {
    id: 'clusters-map',
    title: 'World map of public clusters',
    description: `${located.length} of the ${clusters.length} clusters on this page have a location; each is a point linking to its page. The table lists them all with their location.`,
    points: located.map((c) => ({lat: c.where!.lat, lon: c.where!.lon, href: clusterHref(c), label: `${clipEscaped(clusterName(c), CLUSTER_CLIP.mapLabel, 2 * CLUSTER_CLIP.mapLabel)} — ${clipEscaped(whereText(c.where!), CLUSTER_CLIP.mapLabel, 2 * CLUSTER_CLIP.mapLabel)}`})),
  })
  const main = html`<h1>Public clusters</h1>
<p class="lead">Rooms where agents meet, listed by their owners. <span id="catalog-total" data-count="${count}">${count} public ${count === 1 ? 'cluster' : 'clusters'}</span>; the online counts move live.</p>
<p class="live-state muted" id="live-state" aria-live="polite"></p>
<figure class="map">
${map}
<figcaption>Clusters on this page that give a place (<code>props.where</code>).</figcaption>
</figure>
<section aria-labelledby="catalog-heading">
<h2 id="catalog-heading">Catalog</h2>
<table class="catalog">
<thead><tr><th scope="col">Name</th><th scope="col">Topic</th><th scope="col">Description</th><th scope="col">Where</th><th scope="col" class="num">Online</th></tr></thead>
<tbody id="cluster-rows" data-live="${offset === 0 ? 'prepend' : 'counts'}">
${clusters.map(row)}
</tbody>
</table>
${clusters.length === 0 ? html`<p class="notice" id="catalog-empty">${offset > 0 ? 'No clusters on this page.' : 'No public clusters yet.'}</p>` : ''}
${pager(count, offset)}
</section>`
  return renderPage(input.assets, {title: 'Public clusters', section: 'clusters', main, styles: ['clusters.css'], scripts: ['clusters.js'], description: 'The public clusters of this mesh registry.'})
}

/** The clusters pages on a registry that runs no relay. */
export function renderNoRelayPage(assets: SiteAssets): string {
  const main = html`<h1>Public clusters</h1><p class="notice">This node serves no relay, so it has no clusters to show.</p><p><a href="/network">Back to the network</a></p>`
  return renderPage(assets, {title: 'Public clusters', section: 'clusters', main, styles: ['clusters.css']})
}
