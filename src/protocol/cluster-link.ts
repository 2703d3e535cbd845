/**
 * The contract of a project's link to its cluster (issue 23; docs/network.md),
 * shared by the daemon that writes it (`POST /cluster/link`) and the commands
 * that send it or read it back: the route's body and the owner's credentials
 * file `.mesh/credentials/cluster.json`. Types and pure parsers only.
 */

/** The daemon route that writes a link while the daemon runs. */
export const CLUSTER_LINK_PATH = '/cluster/link'
/** The /events type announcing a new link (no secret in it). */
export const CLUSTER_LINKED_EVENT = 'cluster.linked'
/** `.mesh/`-relative path of the owner's credentials of the linked cluster (0600, never committed). */
export const CLUSTER_CREDENTIALS_FILE = 'credentials/cluster.json'
/** `.mesh/`-relative path of a private cluster's invite (DECISIONS: Bootstrap file). */
export const INVITE_FILE_PATH = 'credentials/invite.url'

/** Body of `POST /cluster/link`: what the relay answered, secrets included (the route is loopback and portal-token only). */
export interface ClusterLinkBody {
  cluster_id: string
  /** The member socket URL, no query. */
  endpoint: string
  visibility: 'private' | 'public'
  name: string
  hub: string
  /** The `ck_` token (join credential of a private cluster, owner credential of a public one). */
  token: string
  /** The `ak_` token: the only credential that administers or deletes the cluster; kept so a later link adopts it. */
  admin_token: string
}

/** `.mesh/credentials/cluster.json`: the cluster this machine created for the project and the credentials that own it. */
export interface ClusterCredentials {
  version: 1
  hub: string
  cluster_id: string
  endpoint: string
  visibility: 'private' | 'public'
  token: string
  admin_token: string
  linked_at: string
}

/** The credentials file's content, or null when it is not one (a corrupt file is treated as absent: the link creates anew). */
export function parseClusterCredentials(text: string): ClusterCredentials | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const v = value as Record<string, unknown>
  const strings = ['hub', 'cluster_id', 'endpoint', 'token', 'admin_token', 'linked_at'] as const
  if (v.version !== 1 || strings.some((key) => typeof v[key] !== 'string') || (v.visibility !== 'private' && v.visibility !== 'public')) return null
  return v as unknown as ClusterCredentials
}
