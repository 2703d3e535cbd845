/**
 * The REST operations of the relay, free of Koa (STYLE: services never see
 * ctx): create, catalog, detail, patch and delete (spec: Endpoints,
 * Authentication, Errors; DECISIONS: Slug, Create, Limits).
 */
import {invalid, notFound, rateLimited, unauthorized} from '../lib/errors.js'
import {assertStorableJson} from '../lib/storable-json.js'
import {roleOfToken} from './access.js'
import {assertShaped, PROPS_SHAPES} from './schema-shapes.js'
import {ADMIN_TOKEN_PREFIX, CATALOG_DEFAULT_LIMIT, CATALOG_MAX_LIMIT, RELAY_PROTOCOL} from './constants.js'
import type {Hub} from './hub.js'
import type {KeyedLock} from './keyed-lock.js'
import {slugify} from './slug.js'
import type {ClusterPatch, ClusterStore} from './store/store.js'
import {hashToken, ipKey, looksLikeClusterId, newAdminToken, newClusterId, newClusterToken} from './tokens.js'
import type {BoardsPart, ClusterAccess, ClusterProps, ClusterRecord, ClusterVisibility, RelayLimits} from './types.js'
import {catalogItem, clusterDetail, clusterWsUrl, type CatalogItem, type ClusterDetail} from './views.js'

export interface ClusterOpsContext {
  store: ClusterStore
  hub: Hub
  clusters: ClusterAccess
  clock: () => number
  limits: RelayLimits
  publicUrl: string
  boards?: BoardsPart
  /** Creations from one address run one at a time, so the quota check and the write are one step on this node. */
  creationLock: KeyedLock
}

/** `POST /v1/clusters` body (src/cluster/wire.ts gives it to clients). */
export interface CreateBody {
  name?: string
  visibility?: ClusterVisibility
  topic?: string
  description?: string
  props?: ClusterProps
  persist?: boolean
}

export interface CreatedCluster {
  cluster_id: string
  token: string
  admin_token: string
  visibility: ClusterVisibility
  slug?: string
  ws: string
  protocol: string
}

const CREATE_SHAPES = {...PROPS_SHAPES, name: 'name must be 1 to 100 characters, not only spaces'}

/** POST /v1/clusters — the quota is checked before anything is written. */
export async function createCluster(c: ClusterOpsContext, body: unknown, clientIp: string): Promise<CreatedCluster> {
  const input = assertShaped<CreateBody>('cluster-create', body, CREATE_SHAPES)
  // PostgreSQL refuses U+0000 (a 500); both stores alter a lone surrogate.
  assertStorableJson(input)
  const ip = ipKey(clientIp)
  return c.creationLock.run(ip, () => createWithinQuota(c, input, ip))
}

async function createWithinQuota(c: ClusterOpsContext, input: CreateBody, ip: string): Promise<CreatedCluster> {
  const now = c.clock()
  const {count, oldest} = await c.store.countCreations(ip, now - c.limits.creationWindowMs + 1)
  if (count >= c.limits.creationsPerIp) {
    const wait = Math.max(1, Math.ceil(((oldest ?? now) + c.limits.creationWindowMs - now) / 1000))
    throw rateLimited(`At most ${c.limits.creationsPerIp} clusters per hour from one address; retry in ${wait} s`, wait)
  }
  const visibility = input.visibility ?? 'private'
  if (visibility === 'private') refusePublicOnly(input)
  const clusterId = newClusterId()
  const token = newClusterToken()
  const adminToken = newAdminToken()
  // DECISIONS: Slug — unique among public clusters; private clusters are never looked up by slug.
  const slug = visibility === 'public' && input.name ? slugify(input.name) : null
  await c.store.createCluster({
    cluster_id: clusterId,
    name: input.name ?? null,
    slug,
    visibility,
    topic: input.topic ?? null,
    description: input.description ?? null,
    props: input.props ?? {},
    persist: input.persist ?? false,
    created_at: new Date(now).toISOString(),
    token_hash: hashToken(token),
    admin_token_hash: hashToken(adminToken),
  })
  await c.store.recordCreation(ip, now, now - c.limits.creationWindowMs)
  return {
    cluster_id: clusterId,
    token,
    admin_token: adminToken,
    visibility,
    ...(slug ? {slug} : {}),
    ws: clusterWsUrl(c.publicUrl, clusterId),
    protocol: RELAY_PROTOCOL,
  }
}

/** GET /v1/clusters — public clusters only, newest first; `count` is the total of public clusters. */
export async function listCatalog(c: ClusterOpsContext, page: {limit?: number; offset?: number}): Promise<{clusters: CatalogItem[]; count: number}> {
  const limit = Math.min(page.limit ?? CATALOG_DEFAULT_LIMIT, CATALOG_MAX_LIMIT)
  const {clusters, total} = await c.store.listPublicClusters({limit, offset: page.offset ?? 0})
  const online = await c.store.onlineCounts(clusters.map((x) => x.cluster_id), c.hub.aliveSince())
  return {clusters: clusters.map((x) => catalogItem(x, online.get(x.cluster_id) ?? 0)), count: total}
}

const noSuchCluster = () => notFound('cluster_not_found', 'No such cluster')

/**
 * spec Cluster: `topic` and `description` are "public only" — they exist
 * for the catalog, which never shows a private cluster. Refused rather than
 * stored unseen, so a caller who forgot `visibility: public` finds out.
 */
function refusePublicOnly(fields: {topic?: string | null; description?: string | null}) {
  for (const field of ['topic', 'description'] as const) {
    if (fields[field] !== undefined && fields[field] !== null) {
      throw invalid('public_only', `${field} is shown only in the catalog of public clusters; set visibility to public or leave ${field} out`, {field})
    }
  }
}

/**
 * GET /v1/clusters/<id-or-slug> — 404 for unknown and for private clusters
 * (a private id cannot be probed), unless the caller presents that
 * cluster's token.
 */
export async function getClusterDetail(c: ClusterOpsContext, idOrSlug: string, token?: string): Promise<{cluster: ClusterDetail}> {
  const cluster = await c.clusters.get(idOrSlug)
  if (!cluster) throw noSuchCluster()
  if (cluster.visibility === 'private' && !(token && (await roleOfToken(c.store, cluster.cluster_id, token)))) throw noSuchCluster()
  return {cluster: await detail(c, cluster)}
}

async function detail(c: ClusterOpsContext, cluster: ClusterRecord): Promise<ClusterDetail> {
  const entries = await c.store.listPresence(cluster.cluster_id, c.hub.aliveSince())
  return clusterDetail(cluster, entries, clusterWsUrl(c.publicUrl, cluster.cluster_id))
}

/**
 * spec Errors: unknown → 404; missing or wrong admin token, including a
 * `ck_` token → 401. The role check hashes and compares in constant time.
 */
async function requireAdmin(c: ClusterOpsContext, clusterId: string, token: string | undefined): Promise<ClusterRecord> {
  const cluster = looksLikeClusterId(clusterId) ? await c.store.getCluster(clusterId) : null
  if (!cluster) throw noSuchCluster()
  if (!token) throw unauthorized('token_required', `The admin token (${ADMIN_TOKEN_PREFIX}…) is required: header x-cluster-token, Authorization: Bearer, or query token`)
  const role = await roleOfToken(c.store, clusterId, token)
  if (role === 'member') throw unauthorized('admin_token_required', `The ck_ token cannot administer a cluster; use the admin token (${ADMIN_TOKEN_PREFIX}…)`)
  if (role !== 'admin') throw unauthorized('invalid_token', 'The admin token is not valid for this cluster')
  return cluster
}

/** PATCH /v1/clusters/<cluster_id> — props, persist, topic, description (admin token). */
export async function patchCluster(c: ClusterOpsContext, clusterId: string, token: string | undefined, body: unknown): Promise<{cluster: ClusterDetail}> {
  const cluster = await requireAdmin(c, clusterId, token)
  const patch = assertShaped<ClusterPatch>('cluster-patch', body, PROPS_SHAPES)
  assertStorableJson(patch)
  if (cluster.visibility === 'private') refusePublicOnly(patch)
  const updated = await c.store.updateCluster(clusterId, patch)
  if (!updated) throw noSuchCluster()
  return {cluster: await detail(c, updated)}
}

/**
 * DELETE /v1/clusters/<cluster_id> — wipes the cluster, its boards and
 * presence; every socket on every node gets `closed {reason: 'deleted'}`.
 */
export async function deleteCluster(c: ClusterOpsContext, clusterId: string, token: string | undefined): Promise<{ok: true; cluster_id: string}> {
  await requireAdmin(c, clusterId, token)
  if (!(await c.store.deleteCluster(clusterId))) throw noSuchCluster()
  c.hub.clusterDeleted(clusterId)
  await c.boards?.onClusterDeleted(clusterId)
  return {ok: true, cluster_id: clusterId}
}
