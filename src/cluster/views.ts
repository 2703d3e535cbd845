/**
 * What external surfaces show of a cluster (DECISIONS: External surfaces):
 * catalog items carry id, name, slug, topic, description and `online` (without
 * ghosts); member lists show public-vis handles, mask private-vis handles as
 * `member #n` and leave ghosts out.
 */
import type {PresenceEntry} from './store/store.js'
import type {ClusterRecord} from './types.js'

export interface CatalogItem {
  id: string
  name: string | null
  slug: string | null
  topic: string | null
  description: string | null
  online: number
}

export interface ExternalMember {
  /** The handle, or `member #<n>` for a private-vis member. */
  agent: string
  did: string | null
}

export interface ClusterDetail extends CatalogItem {
  cluster_id: string
  visibility: ClusterRecord['visibility']
  props: ClusterRecord['props']
  persist: boolean
  created_at: string
  members: ExternalMember[]
  ws: string
}

export const catalogItem = (cluster: ClusterRecord, online: number): CatalogItem => ({
  id: cluster.cluster_id,
  name: cluster.name,
  slug: cluster.slug,
  topic: cluster.topic,
  description: cluster.description,
  online,
})

/**
 * One entry per visible handle, in order of arrival. A handle with any
 * public-vis socket is shown; one seen only through private-vis sockets is
 * masked, numbered by its position in the list; ghosts are absent.
 */
export function externalMembers(entries: PresenceEntry[]): ExternalMember[] {
  const byHandle = new Map<string, {did: string | null; shown: boolean}>()
  for (const e of entries) {
    if (e.vis === 'ghost') continue
    const seen = byHandle.get(e.agent)
    if (!seen) byHandle.set(e.agent, {did: e.did, shown: e.vis === 'public'})
    else if (e.vis === 'public' && !seen.shown) byHandle.set(e.agent, {did: e.did, shown: true})
  }
  return [...byHandle].map(([agent, {did, shown}], index) => (shown ? {agent, did} : {agent: `member #${index + 1}`, did: null}))
}

export function clusterDetail(cluster: ClusterRecord, entries: PresenceEntry[], ws: string): ClusterDetail {
  const members = externalMembers(entries)
  return {
    ...catalogItem(cluster, members.length),
    cluster_id: cluster.cluster_id,
    visibility: cluster.visibility,
    props: cluster.props,
    persist: cluster.persist,
    created_at: cluster.created_at,
    members,
    ws,
  }
}

/** The WebSocket form of the public URL: http → ws, https → wss (spec: `ws` returned at creation). */
export function clusterWsUrl(publicUrl: string, clusterId: string): string {
  const base = publicUrl.replace(/\/+$/, '').replace(/^http(s?):\/\//i, (_m, s: string) => `ws${s}://`)
  return `${base}/v1/clusters/${clusterId}/ws`
}
