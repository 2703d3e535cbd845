/**
 * Admission of a member socket: `GET /v1/clusters/<cluster_id>/ws?token&agent&did&vis`.
 * Every refusal is a real HTTP status written before the handshake (spec
 * Errors: a private cluster with a wrong or absent token → 401, the socket
 * never opens). Only an admitted request is upgraded.
 */
import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import {WebSocketServer} from 'ws'
import {clientIp} from '../../http/client-ip.js'
import {refuseUpgrade} from '../../http/host.js'
import {createRateLimiter} from '../../http/rate-limit.js'
import {isMeshError} from '../../lib/errors.js'
import type {Logger} from '../../lib/log.js'
import {assertStorableJson} from '../../lib/storable-json.js'
import {roleOfToken} from '../access.js'
import {CLUSTER_TOKEN_HEADER, MAX_DID_LENGTH, MAX_HANDLE_LENGTH, WS_MAX_PAYLOAD_FACTOR} from '../constants.js'
import type {Hub} from '../hub.js'
import type {ClusterStore} from '../store/store.js'
import type {ClusterAccess, MemberVis, RelayLimits} from '../types.js'
import {bearerToken} from '../../http/bearer.js'
import type {MemberIdentity} from './member.js'

const WS_PATH = /^\/v1\/clusters\/([^/]+)\/ws\/?$/
const VIS: readonly MemberVis[] = ['public', 'private', 'ghost']

class Refusal {
  constructor(readonly status: number, readonly code: string, readonly message: string, readonly headers: Record<string, string> = {}) {}
}

/** A query parameter given at most once: a repeated one is refused, as on the REST routes, not silently picked. */
function single(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name)
  if (values.length > 1) throw new Refusal(400, 'invalid_query', `Query parameter "${name}" is given more than once`)
  return values.length === 0 ? null : values[0]
}

/** Handle and did are kept in presence rows: U+0000 would fail there on PostgreSQL (a join that dies after the handshake). */
function refuseUnstorable(value: string, field: string) {
  try {
    assertStorableJson(value, field)
  } catch (error) {
    if (isMeshError(error)) throw new Refusal(400, error.code, error.message)
    throw error
  }
}

/** Reads the member's self-asserted identity from the query (spec: Member). */
function readIdentity(query: URLSearchParams): {agent: string; did: string | null; vis: MemberVis} {
  const agent = single(query, 'agent')
  if (agent === null || agent.trim() === '') throw new Refusal(400, 'agent_required', 'Query parameter "agent" (your handle) is required')
  if (agent.length > MAX_HANDLE_LENGTH) throw new Refusal(400, 'invalid_agent', `Handle is longer than ${MAX_HANDLE_LENGTH} characters`)
  refuseUnstorable(agent, 'agent')
  const did = single(query, 'did') || null
  if (did && did.length > MAX_DID_LENGTH) throw new Refusal(400, 'invalid_did', `did is longer than ${MAX_DID_LENGTH} characters`)
  if (did) refuseUnstorable(did, 'did')
  const vis = (single(query, 'vis') || 'public') as MemberVis
  if (!VIS.includes(vis)) throw new Refusal(400, 'invalid_vis', 'vis must be one of public, private, ghost')
  return {agent, did, vis}
}

/** The `ck_`/`ak_` token: query `token` (spec), or the headers non-browser clients may prefer. */
function presentedToken(request: IncomingMessage, query: URLSearchParams): string | null {
  const fromQuery = single(query, 'token')
  if (fromQuery) return fromQuery
  const header = request.headers[CLUSTER_TOKEN_HEADER]
  if (typeof header === 'string' && header.trim()) return header.trim()
  return bearerToken(request.headers.authorization) ?? null
}

export interface UpgradeOptions {
  hub: Hub
  store: ClusterStore
  clusters: ClusterAccess
  limits: RelayLimits
  logger: Logger
  clock?: () => number
  /** Key the per-IP limit on the forwarded address (behind a reverse proxy). */
  proxy?: boolean
}

/** The relay's `upgrade` hook: claims its path synchronously, admits asynchronously. */
export function createUpgradeHandler(options: UpgradeOptions) {
  const wss = new WebSocketServer({
    noServer: true,
    // Above the 64 KB limit so an oversized frame earns an `error` frame, not a killed socket.
    maxPayload: options.limits.maxFrameBytes * WS_MAX_PAYLOAD_FACTOR,
    // Compression would cost a deflate per recipient and break "serialize once".
    perMessageDeflate: false,
    clientTracking: false,
  })
  const opensPerIp = createRateLimiter({limit: options.limits.socketOpensPerIp, windowMs: options.limits.socketOpenWindowMs, now: options.clock})
  /** The place held for each request being upgraded, given back at once when ws refuses its handshake. */
  const seatOf = new WeakMap<IncomingMessage, () => void>()
  // ws's own refusal of a malformed handshake (Upgrade, key, version, protocol list) is a text/html body; ours is JSON.
  wss.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) => {
    seatOf.get(request)?.()
    const headers: Record<string, string> = /version/i.test(error.message) ? {'Sec-WebSocket-Version': '13, 8'} : {}
    refuseUpgrade(socket, 400, 'invalid_handshake', `WebSocket handshake refused: ${error.message}`, headers)
  })

  async function admit(request: IncomingMessage, socket: Duplex, head: Buffer, idOrSlug: string, query: URLSearchParams) {
    const {agent, did, vis} = readIdentity(query)
    const token = presentedToken(request, query)
    const cluster = await options.clusters.get(idOrSlug)
    if (!cluster) throw new Refusal(404, 'cluster_not_found', 'No such cluster')
    const role = token ? await roleOfToken(options.store, cluster.cluster_id, token) : null
    const isPublic = cluster.visibility === 'public'
    if (!isPublic && !role) {
      throw token
        ? new Refusal(401, 'invalid_token', 'The token does not open this cluster')
        : new Refusal(401, 'token_required', 'This cluster is private: pass its ck_ token as query parameter "token"')
    }
    const releaseSeat = await options.hub.reserveSeat(cluster.cluster_id, options.limits.membersPerCluster)
    if (!releaseSeat) {
      throw new Refusal(429, 'cluster_full', `This cluster has reached its limit of ${options.limits.membersPerCluster} members`, {'Retry-After': '30'})
    }
    // A socket that never reaches accept() gives the place back when it goes, or at once when ws refuses its handshake.
    socket.once('close', releaseSeat)
    seatOf.set(request, releaseSeat)
    // DECISIONS: on a public cluster, a socket presenting the ck_ token (or the admin token) is the owner.
    const identity: MemberIdentity = {agent, did, vis, owner: isPublic && role !== null, public: isPublic}
    if (socket.destroyed) return releaseSeat()
    wss.handleUpgrade(request, socket, head, (ws) => {
      options.hub.accept(ws, socket, cluster.cluster_id, identity, releaseSeat).catch((error: unknown) => {
        // accept() handles its own failures; this only keeps a bug from becoming an unhandled rejection.
        options.logger.error('member join failed', {cluster_id: cluster.cluster_id, error: String(error)})
        ws.terminate()
      })
    })
  }

  return function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    let url: URL
    try {
      url = new URL(request.url ?? '/', 'http://relay.invalid')
    } catch {
      // An absolute-form target with a bad host (`GET http://[/…`): not a path of ours. Throwing
      // here would be an uncaught exception in the server's 'upgrade' event and stop the node.
      return false
    }
    const match = WS_PATH.exec(url.pathname)
    if (!match) return false
    // The client may vanish while we look the cluster up; its reset must not crash the process.
    socket.on('error', () => socket.destroy())
    // Before any lookup: ws would refuse it anyway, after a cluster query and a held place.
    if (request.method !== 'GET') {
      refuseUpgrade(socket, 405, 'method_not_allowed', 'A cluster WebSocket opens with GET', {Allow: 'GET'})
      return true
    }
    // Counted before any lookup, so a flood of opens costs no query (docs/relay.md Limits).
    const wait = opensPerIp.take(clientIp(request, options.proxy ?? false))
    if (wait > 0) {
      const limit = options.limits.socketOpensPerIp
      refuseUpgrade(socket, 429, 'rate_limited', `At most ${limit} sockets per minute from one address; retry in ${wait} s`, {'Retry-After': String(wait)})
      return true
    }
    let idOrSlug: string
    try {
      idOrSlug = decodeURIComponent(match[1])
    } catch {
      refuseUpgrade(socket, 404, 'cluster_not_found', 'No such cluster')
      return true
    }
    admit(request, socket, head, idOrSlug, url.searchParams)
      .catch((error) => {
        if (error instanceof Refusal) return refuseUpgrade(socket, error.status, error.code, error.message, error.headers)
        options.logger.error('websocket admission failed', {error: String(error)})
        refuseUpgrade(socket, 503, 'unavailable', 'The relay cannot admit members right now')
      })
      // Last resort: a throw while refusing must not become an unhandled rejection (Node 20 exits on one).
      .catch(() => socket.destroy())
    return true
  }
}
