/**
 * Storage of the cluster relay: the catalog of clusters with hashed
 * credentials, the creation quota per IP, and the presence of members on
 * every node (so `ready.online`, catalog counts and member limits see all
 * nodes). This file holds the interface and the in-memory implementation;
 * sqlite.ts and postgres.ts hold the durable ones. All prove the same
 * contract (test/cluster/store/store.contract.ts).
 */
import type {NodeSeen, SweptNode} from '../../bus/peers.js'
import {conflict} from '../../lib/errors.js'
import type {ClusterProps, ClusterRecord, MemberVis} from '../types.js'

/** A new cluster row: the record plus the sha256 hex of its two tokens. */
export interface NewCluster extends ClusterRecord {
  token_hash: string
  admin_token_hash: string
}

/** The sha256 hex digests of a cluster's `ck_` and `ak_` tokens. */
export interface ClusterCredentials {
  token_hash: string
  admin_token_hash: string
}

/** Fields the admin token may change (DECISIONS: the admin token can PATCH props and persist). */
export interface ClusterPatch {
  props?: ClusterProps
  persist?: boolean
  topic?: string | null
  description?: string | null
}

/** One open socket of one member on one node. */
export interface PresenceEntry {
  cluster_id: string
  node_id: string
  socket_id: string
  agent: string
  did: string | null
  vis: MemberVis
  /** Epoch milliseconds. */
  joined_at: number
}

export interface ListPage {
  limit: number
  offset: number
}

export interface ClusterStore {
  /** Inserts a cluster; a public slug already taken throws a conflict `slug_taken`. */
  createCluster(cluster: NewCluster): Promise<void>
  getCluster(clusterId: string): Promise<ClusterRecord | null>
  /** Slugs name public clusters only. */
  getPublicClusterBySlug(slug: string): Promise<ClusterRecord | null>
  getCredentials(clusterId: string): Promise<ClusterCredentials | null>
  /** Public clusters, newest first, with the total number of public clusters. */
  listPublicClusters(page: ListPage): Promise<{clusters: ClusterRecord[]; total: number}>
  /** Applies a patch; null when the cluster is unknown. */
  updateCluster(clusterId: string, patch: ClusterPatch): Promise<ClusterRecord | null>
  /** Removes the cluster and its presence rows; false when it did not exist. */
  deleteCluster(clusterId: string): Promise<boolean>

  /** Creations recorded for `ipKey` at or after `since` (epoch ms), with the oldest of them. */
  countCreations(ipKey: string, since: number): Promise<{count: number; oldest: number | null}>
  /** Records one creation and drops records older than `pruneBefore`. */
  recordCreation(ipKey: string, at: number, pruneBefore: number): Promise<void>

  /**
   * Marks a node alive at `at` (epoch ms). Resolves false when the node had
   * no row (its first beat, or swept after a stall): its presence rows went
   * with it, so the node writes and announces them again.
   */
  heartbeatNode(nodeId: string, at: number): Promise<boolean>
  /** Node ids whose last heartbeat is at or after `since`. */
  listLiveNodes(since: number): Promise<string[]>
  /** Every node's last heartbeat, live or not (the peers of `/health`). */
  listNodes(): Promise<NodeSeen[]>
  addPresence(entry: PresenceEntry): Promise<void>
  removePresence(nodeId: string, socketId: string): Promise<void>
  /** Open sockets of a cluster on live nodes, oldest first. */
  listPresence(clusterId: string, aliveSince: number): Promise<PresenceEntry[]>
  /** Distinct non-ghost handles per cluster on live nodes (the catalog's `online`). */
  onlineCounts(clusterIds: string[], aliveSince: number): Promise<Map<string, number>>
  /** Removes a node and all its presence rows (clean stop). */
  removeNode(nodeId: string): Promise<void>
  /**
   * Removes nodes not seen since `staleBefore`, and their presence rows
   * (crashed nodes). Answers the nodes this call removed with their row
   * counts: of several nodes sweeping at once, only one reports a node.
   */
  sweepNodes(staleBefore: number): Promise<SweptNode[]>
}

export const slugTaken = (slug: string) =>
  conflict('slug_taken', `A public cluster named "${slug}" already exists; choose another name`, {field: 'name'})

const copy = <T>(value: T): T => structuredClone(value)

/** Everything in process memory: for tests and single-node development runs. */
export function createMemoryClusterStore(): ClusterStore {
  const clusters = new Map<string, NewCluster>()
  const creations = new Map<string, number[]>()
  const nodes = new Map<string, number>()
  const presence = new Map<string, PresenceEntry>()
  const key = (nodeId: string, socketId: string) => `${nodeId}\u0000${socketId}`
  const publicRecord = (row: NewCluster): ClusterRecord => {
    const {token_hash: _t, admin_token_hash: _a, ...record} = row
    return copy(record)
  }
  const live = (since: number) => new Set([...nodes].filter(([, seen]) => seen >= since).map(([id]) => id))

  return {
    async createCluster(cluster) {
      if (clusters.has(cluster.cluster_id)) throw conflict('cluster_exists', 'Cluster id already exists')
      if (cluster.visibility === 'public' && cluster.slug) {
        for (const row of clusters.values()) if (row.visibility === 'public' && row.slug === cluster.slug) throw slugTaken(cluster.slug)
      }
      clusters.set(cluster.cluster_id, copy(cluster))
    },
    async getCluster(clusterId) {
      const row = clusters.get(clusterId)
      return row ? publicRecord(row) : null
    },
    async getPublicClusterBySlug(slug) {
      for (const row of clusters.values()) if (row.visibility === 'public' && row.slug === slug) return publicRecord(row)
      return null
    },
    async getCredentials(clusterId) {
      const row = clusters.get(clusterId)
      return row ? {token_hash: row.token_hash, admin_token_hash: row.admin_token_hash} : null
    },
    async listPublicClusters({limit, offset}) {
      const rows = [...clusters.values()]
        .filter((row) => row.visibility === 'public')
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.cluster_id.localeCompare(b.cluster_id))
      return {clusters: rows.slice(offset, offset + limit).map(publicRecord), total: rows.length}
    },
    async updateCluster(clusterId, patch) {
      const row = clusters.get(clusterId)
      if (!row) return null
      if (patch.props !== undefined) row.props = copy(patch.props)
      if (patch.persist !== undefined) row.persist = patch.persist
      if (patch.topic !== undefined) row.topic = patch.topic
      if (patch.description !== undefined) row.description = patch.description
      return publicRecord(row)
    },
    async deleteCluster(clusterId) {
      for (const [k, entry] of presence) if (entry.cluster_id === clusterId) presence.delete(k)
      return clusters.delete(clusterId)
    },
    async countCreations(ipKey, since) {
      const times = (creations.get(ipKey) ?? []).filter((t) => t >= since)
      return {count: times.length, oldest: times.length ? Math.min(...times) : null}
    },
    async recordCreation(ipKey, at, pruneBefore) {
      for (const [k, times] of creations) {
        const kept = times.filter((t) => t >= pruneBefore)
        if (kept.length) creations.set(k, kept)
        else creations.delete(k)
      }
      creations.set(ipKey, [...(creations.get(ipKey) ?? []), at])
    },
    async heartbeatNode(nodeId, at) {
      const known = nodes.has(nodeId)
      nodes.set(nodeId, at)
      return known
    },
    async listLiveNodes(since) {
      return [...live(since)]
    },
    async listNodes() {
      return [...nodes].map(([node_id, seen_at]) => ({node_id, seen_at})).sort((a, b) => a.node_id.localeCompare(b.node_id))
    },
    async addPresence(entry) {
      presence.set(key(entry.node_id, entry.socket_id), copy(entry))
    },
    async removePresence(nodeId, socketId) {
      presence.delete(key(nodeId, socketId))
    },
    async listPresence(clusterId, aliveSince) {
      const alive = live(aliveSince)
      return [...presence.values()]
        .filter((e) => e.cluster_id === clusterId && alive.has(e.node_id))
        .sort((a, b) => a.joined_at - b.joined_at || a.socket_id.localeCompare(b.socket_id))
        .map(copy)
    },
    async onlineCounts(clusterIds, aliveSince) {
      const alive = live(aliveSince)
      const wanted = new Set(clusterIds)
      const handles = new Map<string, Set<string>>()
      for (const e of presence.values()) {
        if (!wanted.has(e.cluster_id) || e.vis === 'ghost' || !alive.has(e.node_id)) continue
        let set = handles.get(e.cluster_id)
        if (!set) handles.set(e.cluster_id, (set = new Set()))
        set.add(e.agent)
      }
      return new Map(clusterIds.map((id) => [id, handles.get(id)?.size ?? 0]))
    },
    async removeNode(nodeId) {
      nodes.delete(nodeId)
      for (const [k, e] of presence) if (e.node_id === nodeId) presence.delete(k)
    },
    async sweepNodes(staleBefore) {
      const swept: SweptNode[] = []
      for (const [id, seen] of nodes) {
        if (seen >= staleBefore) continue
        let members = 0
        for (const e of presence.values()) if (e.node_id === id) members++
        await this.removeNode(id)
        swept.push({node_id: id, members})
      }
      return swept
    },
  }
}
