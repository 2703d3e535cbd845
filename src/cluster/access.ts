import type {ClusterStore} from './store/store.js'
import {tokenMatches, looksLikeClusterId} from './tokens.js'
import {looksLikeSlug} from './slug.js'
import type {ClusterAccess, ClusterRecord, ClusterRole} from './types.js'

/**
 * Read access to clusters for the relay and the boards part. Token checks
 * hash the presented token and compare digests in constant time.
 */
export function createClusterAccess(options: {store: ClusterStore}): ClusterAccess {
  const {store} = options
  return {
    async get(idOrSlug: string): Promise<ClusterRecord | null> {
      if (looksLikeClusterId(idOrSlug)) return store.getCluster(idOrSlug)
      if (looksLikeSlug(idOrSlug)) return store.getPublicClusterBySlug(idOrSlug)
      return null
    },
    async authorize(clusterId: string, token?: string): Promise<ClusterRole | null> {
      if (!looksLikeClusterId(clusterId)) return null
      const cluster = await store.getCluster(clusterId)
      if (!cluster) return null
      const role = token ? await roleOfToken(store, clusterId, token) : null
      if (role) return role
      return cluster.visibility === 'public' ? 'public' : null
    },
  }
}

/** 'admin' for the `ak_` token, 'member' for the `ck_` token, null otherwise. */
export async function roleOfToken(store: ClusterStore, clusterId: string, token: string): Promise<'admin' | 'member' | null> {
  const credentials = await store.getCredentials(clusterId)
  if (!credentials) return null
  // Both digests are checked so the time taken does not tell which one matched.
  const admin = tokenMatches(token, credentials.admin_token_hash)
  const member = tokenMatches(token, credentials.token_hash)
  return admin ? 'admin' : member ? 'member' : null
}
