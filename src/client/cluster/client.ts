/**
 * Client of the cluster relay: the REST calls (create, list, get, delete)
 * and the member socket (ClusterConnection). spec: cluster
 * "Endpoints" and "Authentication". Importing this file loads no ws: the
 * socket library is imported when a connection first connects.
 */
import {MeshError} from '../../lib/errors.js'
import type {CatalogItem, ClusterList, ClusterVisibility, CreateClusterInput, CreatedCluster, MemberVis} from '../../cluster/wire.js'
import {callJson, resolveServerUrl} from '../http-json.js'
import {DEFAULT_RELAY_URL, RELAY_ENV, REST_TIMEOUT_MS} from './constants.js'
import {ClusterConnection, type ClusterConnectionOptions} from './connection.js'

export {ClusterConnection} from './connection.js'
export {redactUrl} from './socket.js'
export type {ClusterConnectionEvents, ClusterConnectionOptions, ConnectionState, ConnectionStatus} from './connection.js'
export * from './frames.js'
export {Roster, type RosterEntry} from './roster.js'
export {createBackoff, type Backoff, type BackoffOptions} from './backoff.js'

export type Visibility = ClusterVisibility
export type MemberVisibility = MemberVis
export type {ClusterCatalogItem, ClusterList, CreateClusterInput, CreatedCluster}
type ClusterCatalogItem = CatalogItem

/** Who joins: spec "Member" — handle, optional did:key, visibility. */
export interface JoinOptions {
  /** `ck_` token; required for private clusters. */
  token?: string
  agent: string
  did?: string
  vis?: MemberVisibility
}

export interface ClusterClientOptions {
  /** Relay base URL, e.g. `http://127.0.0.1:8080`. */
  relay: string
  fetch?: typeof fetch
  timeoutMs?: number
}

/** The relay URL from a flag, else `MESH_RELAY`, else the default; checked to be http(s) or ws(s). */
export const resolveRelayUrl = (flag?: string, env: NodeJS.ProcessEnv = process.env): string =>
  resolveServerUrl({flag, flagName: '--relay', env: RELAY_ENV, fallback: DEFAULT_RELAY_URL, websocket: true}, env)

/** `<relay>/<path>` keeping any path prefix of the relay (a relay behind a proxy at /mesh). */
export function relayUrl(relay: string, path: string, scheme: 'http' | 'ws'): URL {
  const url = new URL(path.replace(/^\//, ''), relay.endsWith('/') ? relay : relay + '/')
  const secure = url.protocol === 'https:' || url.protocol === 'wss:'
  url.protocol = scheme === 'ws' ? (secure ? 'wss:' : 'ws:') : secure ? 'https:' : 'http:'
  return url
}

/** The member socket URL: spec `GET (WebSocket) /v1/clusters/<cluster_id>/ws?token&agent&did&vis`. */
export function clusterWsUrl(relay: string, clusterId: string, join: JoinOptions): string {
  const url = relayUrl(relay, `/v1/clusters/${encodeURIComponent(clusterId)}/ws`, 'ws')
  if (join.token) url.searchParams.set('token', join.token)
  url.searchParams.set('agent', join.agent)
  if (join.did) url.searchParams.set('did', join.did)
  if (join.vis) url.searchParams.set('vis', join.vis)
  return url.toString()
}

/** REST calls to one relay, with mesh's JSON errors turned into MeshErrors. */
export class ClusterClient {
  readonly relay: string
  readonly fetch: typeof fetch
  readonly timeoutMs: number

  constructor(options: ClusterClientOptions) {
    this.relay = options.relay
    this.fetch = options.fetch ?? globalThis.fetch
    this.timeoutMs = options.timeoutMs ?? REST_TIMEOUT_MS
  }

  /** `POST /v1/clusters`: creates a cluster; the answer holds both tokens, shown once. */
  create(input: CreateClusterInput): Promise<CreatedCluster> {
    return this.request<CreatedCluster>('POST', '/v1/clusters', {body: input})
  }

  /** `GET /v1/clusters`: the public catalog. */
  list(): Promise<ClusterList> {
    return this.request<ClusterList>('GET', '/v1/clusters')
  }

  /**
   * `GET /v1/clusters/<id-or-slug>`: one public cluster (404 for private or
   * unknown), or a private one to a holder of its `ck_` or `ak_` token
   * (header `x-cluster-token`).
   */
  async get(idOrSlug: string, token?: string): Promise<Record<string, unknown>> {
    const answer = await this.request<{cluster: Record<string, unknown>}>('GET', `/v1/clusters/${encodeURIComponent(idOrSlug)}`, token ? {headers: {'x-cluster-token': token}} : {})
    return answer.cluster
  }

  /** `DELETE /v1/clusters/<id>` with the `ak_` admin token (header `x-cluster-token`). */
  delete(clusterId: string, adminToken: string): Promise<{ok: true; cluster_id: string}> {
    return this.request('DELETE', `/v1/clusters/${encodeURIComponent(clusterId)}`, {headers: {'x-cluster-token': adminToken}})
  }

  /**
   * The cluster id to connect to: ids (`c_…`) as given, a slug resolved
   * through the catalog (slugs name public clusters only).
   */
  async resolveClusterId(idOrSlug: string): Promise<string> {
    if (idOrSlug.startsWith('c_')) return idOrSlug
    const cluster = await this.get(idOrSlug)
    const id = cluster.cluster_id ?? cluster.id
    if (typeof id !== 'string') throw new MeshError('internal', 'relay_bad_answer', `The relay's answer for "${idOrSlug}" has no cluster id`)
    return id
  }

  /** A connection to a cluster, not yet open: call `connect()` on it. */
  connection(clusterId: string, join: JoinOptions, options: Partial<ClusterConnectionOptions> = {}): ClusterConnection {
    return new ClusterConnection({...options, clusterId, url: clusterWsUrl(this.relay, clusterId, join)})
  }

  private request<T>(method: string, path: string, options: RelayRequestOptions = {}): Promise<T> {
    return relayRequest<T>(this, method, path, options)
  }
}

export interface RelayRequestOptions {
  body?: unknown
  params?: URLSearchParams
  headers?: Record<string, string>
}

/**
 * One REST call to a relay, shared by ClusterClient and BoardsClient: the
 * URL keeps any path prefix of the relay, and mesh's JSON errors become
 * MeshErrors with the relay's code (http-json.ts).
 */
export async function relayRequest<T>(
  target: {relay: string; fetch: typeof fetch; timeoutMs: number},
  method: string,
  path: string,
  options: RelayRequestOptions = {},
): Promise<T> {
  const url = relayUrl(target.relay, path, 'http')
  if (options.params) url.search = options.params.toString()
  const body = await callJson<T | undefined>({
    method,
    url,
    headers: options.headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    timeoutMs: target.timeoutMs,
    fetch: target.fetch,
    service: 'relay',
  })
  if (body === undefined) throw new MeshError('unavailable', 'relay_bad_answer', `The relay answered ${method} ${url.pathname} with no JSON body`)
  return body
}

/** A client for the relay named by a flag, `MESH_RELAY` or the default. */
export function createClusterClient(options: Partial<ClusterClientOptions> = {}): ClusterClient {
  return new ClusterClient({...options, relay: resolveRelayUrl(options.relay)})
}
