/** Pieces both clusters pages show the same way. */
import type {ClusterWhere} from '../../../cluster/types.js'
import {html, type Html} from '../html.js'

/** The page of a cluster: by slug when it has one, else by id. */
export const clusterHref = (cluster: {id: string; slug: string | null}) => `/clusters/${encodeURIComponent(cluster.slug ?? cluster.id)}`

export const clusterName = (cluster: {name: string | null}) => cluster.name ?? 'Unnamed cluster'

/** A place as people read it: its label, else its coordinates. */
export function whereText(where: ClusterWhere): string {
  if (where.label && where.label.trim()) return where.label
  return `${where.lat.toFixed(2)}, ${where.lon.toFixed(2)}`
}

/** The online count with the hook clusters.js moves live (`data-cluster-id`, `data-online`). */
export function onlineCount(clusterId: string, online: number): Html {
  return html`<span class="online-count${online > 0 ? ' active' : ''}" data-cluster-id="${clusterId}" data-online="${online}"><span class="dot" aria-hidden="true"></span><span class="n">${online}</span> online</span>`
}
