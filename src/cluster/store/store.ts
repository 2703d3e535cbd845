/**
 * Storage of the cluster relay: the catalog of clusters with hashed
 * credentials, the creation quota per IP, and the presence of members on
 * every node (so `ready.online`, catalog counts and member limits see all
 * nodes). This file holds the interface and the in-memory implementation;
 * sqlite.ts and postgres.ts hold the durable ones. All prove the same
 * contract (test/cluster/store/store.contract.ts).
 */
import {createMemoryNodeTable, type NodeTable} from '../../store/nodes/table.js'
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

/** The node rows are `cluster_nodes`; presence rows (`cluster_presence`) hang on them. */
export interface ClusterStore extends NodeTable {
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

  addPresence(entry: PresenceEntry): Promise<void>
  removePresence(nodeId: string, socketId: string): Promise<void>
  /** Open sockets of a cluster on live nodes, oldest first. */
  listPresence(clusterId: string, aliveSince: number): Promise<PresenceEntry[]>
  /** Distinct non-ghost handles per cluster on live nodes (the catalog's `online`). */
  onlineCounts(clusterIds: string[], aliveSince: number): Promise<Map<string, number>>
}

export const slugTaken = (slug: string) =>
  conflict('slug_taken', `A public cluster named "${slug}" already exists; choose another name`, {field: 'name'})

const copy = <T>(value: T): T => structuredClone(value)

/** Everything in process memory: for tests and single-node development runs. */
export function createMemoryClusterStore(): ClusterStore {
  const clusters = new Map<string, NewCluster>()
  const creations = new Map<string, number[]>()
  const presence = new Map<string, PresenceEntry>()
  const nodes = createMemoryNodeTable({
    count: (nodeId) => [...presence.values()].filter((e) => e.node_id === nodeId).length,
    drop(nodeId) {
      for (const [k, e] of presence) if (e.node_id === nodeId) presence.delete(k)
    },
  })
  const key = (nodeId: string, socketId: string) => `${nodeId}\u0000${socketId}`
  const publicRecord = (row: NewCluster): ClusterRecord => {
    const {token_hash: _t, admin_token_hash: _a, ...record} = row
    return copy(record)
  }

  return {
    ...nodes,
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
    async addPresence(entry) {
      presence.set(key(entry.node_id, entry.socket_id), copy(entry))
    },
    async removePresence(nodeId, socketId) {
      presence.delete(key(nodeId, socketId))
    },
    async listPresence(clusterId, aliveSince) {
      return [...presence.values()]
        .filter((e) => e.cluster_id === clusterId && nodes.isLive(e.node_id, aliveSince))
        .sort((a, b) => a.joined_at - b.joined_at || a.socket_id.localeCompare(b.socket_id))
        .map(copy)
    },
    async onlineCounts(clusterIds, aliveSince) {
      const wanted = new Set(clusterIds)
      const handles = new Map<string, Set<string>>()
      for (const e of presence.values()) {
        if (!wanted.has(e.cluster_id) || e.vis === 'ghost' || !nodes.isLive(e.node_id, aliveSince)) continue
        let set = handles.get(e.cluster_id)
        if (!set) handles.set(e.cluster_id, (set = new Set()))
        set.add(e.agent)
      }
      return new Map(clusterIds.map((id) => [id, handles.get(id)?.size ?? 0]))
    },
  }
}
