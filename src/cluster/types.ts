/**
 * The seams of the cluster relay (spec: cluster; docs/relay.md). Other parts of
 * mesh build on these types: the boards part consumes `ClusterAccess` and
 * implements `BoardsPart`; the registry composes `createRelay` into
 * `mesh serve registry` and uses `RelayService.broadcast` for the legacy
 * channel route.
 */
import type {RelayMetrics} from './metrics.js'
import type {BoardView, PostView} from './boards/types.js'
import type {PublicClusterView} from './public-view.js'
import type {Bus} from '../bus/bus.js'
import type {PeerView} from '../bus/peers.js'
import type {MeshService} from '../http/service.js'
import type {Logger} from '../lib/log.js'
import type {ClusterStore} from './store/store.js'

/** spec: Cluster `visibility` — private (default, token-gated, never listed) or public. */
export type ClusterVisibility = 'private' | 'public'

/** spec: Member `vis` — public (default), private (masked outside), ghost (invisible). */
export type MemberVis = 'public' | 'private' | 'ghost'

/**
 * What a caller may do on a cluster:
 * - `admin`: presented the `ak_` admin token;
 * - `member`: presented the `ck_` token (join/spectate on private clusters, owner on public ones);
 * - `public`: no (valid) token on a public cluster.
 */
export type ClusterRole = 'admin' | 'member' | 'public'

/** A location point; spec: `props.where`. */
export interface ClusterWhere {
  lat: number
  lon: number
  label?: string
}

/** Structured props inherited cluster → board → post (spec: Board and post; DECISIONS: Create accepts props). */
export interface ClusterProps {
  where?: ClusterWhere
  lang?: string
  age_min?: number
}

/** A cluster as stored, without its credentials (those only exist hashed, see ClusterStore). */
export interface ClusterRecord {
  /** `c_` + ≥128 random bits, base64url. */
  cluster_id: string
  name: string | null
  /** kebab-case of the name; set for public clusters with a name, unique among public clusters. */
  slug: string | null
  visibility: ClusterVisibility
  topic: string | null
  description: string | null
  props: ClusterProps
  /** Opt-in persistence of board posts (DECISIONS: Create accepts `persist`). */
  persist: boolean
  /** ISO-8601 UTC. */
  created_at: string
}

/**
 * Read access to clusters for other parts (boards). Implemented by
 * `createClusterAccess({store})` in src/cluster/access.ts.
 */
export interface ClusterAccess {
  /** A cluster by id (any visibility) or by slug (public clusters only); null when unknown. */
  get(idOrSlug: string): Promise<ClusterRecord | null>
  /**
   * The role a token grants on a cluster, null when it grants nothing:
   * unknown cluster → null; `ak_` admin token → 'admin'; `ck_` token → 'member';
   * otherwise 'public' on a public cluster and null on a private one
   * (a wrong token on a public cluster counts as no token).
   */
  authorize(clusterId: string, token?: string): Promise<ClusterRole | null>
}

/** Structured hashtag scoping added to an outbound `message` frame (spec: Hashtag scoping). */
export interface ResolvedTags {
  board?: string
  ref?: string
}

/** The boards-and-posts part, implemented in src/cluster/boards/ and mounted by the relay. */
export interface BoardsPart {
  /** Routes `/v1/clusters/:id/boards…`; mounted after the relay's own routes; calls next() for other paths. */
  middleware: MeshService['middleware']
  /** Resolves `#<board-slug>` / `#<post-id>` in a text; called only for text containing `#`. */
  resolveTags(clusterId: string, text: string): Promise<ResolvedTags>
  /** Wipes boards and posts of a deleted cluster. */
  onClusterDeleted(clusterId: string): Promise<void>
  /**
   * Anonymous reads, answered as a stranger's `GET …/boards` and `GET …/boards/<id>/posts`
   * are (public cluster, no token, no adult flag): what external surfaces may show.
   */
  readonly publicReads: PublicBoardReads
}

/** See BoardsPart.publicReads. Errors are the routes' (a cluster deleted meanwhile: not found; an age-gated board: refused). */
export interface PublicBoardReads {
  boards(clusterId: string): Promise<BoardView[]>
  /** The newest live posts of a board, newest first, and whether it holds more. */
  newestPosts(clusterId: string, boardId: string, limit: number): Promise<{posts: PostView[]; more: boolean}>
}

/** The relay's configurable limits (DECISIONS: Limits (configurable)); defaults in constants.ts. */
export interface RelayLimits {
  /** Largest client frame accepted, in bytes (spec Limits: ≤ 64 KB). */
  maxFrameBytes: number
  /** Messages one socket may send per `messageWindowMs`. */
  messagesPerWindow: number
  messageWindowMs: number
  /** Sockets (ghosts included) per cluster, across all nodes. */
  membersPerCluster: number
  /** Cluster creations per client IP per `creationWindowMs` (one hour). */
  creationsPerIp: number
  creationWindowMs: number
  /** Member sockets one client IP may open per `socketOpenWindowMs` (one minute), per node. */
  socketOpensPerIp: number
  socketOpenWindowMs: number
  /** Bytes buffered for one socket beyond which it is closed as a slow consumer. */
  highWaterBytes: number
  /** Server ping interval; a socket that misses a pong by the next ping is terminated. */
  pingIntervalMs: number
}

/** Options of `createRelay`. */
export interface RelayOptions {
  store: ClusterStore
  /** Fan-out between nodes; `createLocalBus()` for one node. */
  bus: Bus
  /** Milliseconds since the epoch; injected so tests control time. */
  clock?: () => number
  logger: Logger
  /** Public base URL (http[s]://host[:port]); the `ws` URL of a cluster is built from it. */
  publicUrl: string
  limits?: Partial<RelayLimits>
  boards?: BoardsPart
  /**
   * Behind a reverse proxy: per-IP limits of socket upgrades key on the
   * forwarded address (src/http/client-ip.ts). Give the host (`serve`) the same setting.
   */
  proxy?: boolean
  /** Counts frames, fan-out and slow-consumer closes (`--metrics`); default nothing. */
  metrics?: RelayMetrics
}

/** This relay node's sockets and clusters, read on a metrics scrape. */
export interface RelayStats {
  /** Member sockets open on this node (joining ones included). */
  sockets: number
  /** Clusters with a member on this node. */
  clusters: number
}

/** This relay node's view of the deployment, as `/health` shows it (docs/relay.md "Health"). */
export interface RelayNodeView {
  node_id: string
  /** The other relay nodes in the shared store at the last heartbeat. */
  peers: PeerView[]
  /** ISO time of that heartbeat; null before the first. */
  checked_at: string | null
}

/** The relay as a MeshService, plus the send used by the registry's legacy channel route. */
export interface RelayService extends MeshService {
  /** What external surfaces (the registry's web pages) may show: public clusters only, members masked. */
  readonly publicView: PublicClusterView
  /** This node's view of its peers (the registry's `/health` shows it when it serves the relay). */
  nodeView(): RelayNodeView
  /** Runs one node heartbeat now: marks this node alive, logs peer changes, sweeps silent nodes, announces its members again if it was swept (tests, operators). */
  heartbeat(): Promise<void>
  /** Read access to clusters (the same one handed to boards). */
  readonly clusters: ClusterAccess
  /**
   * Broadcasts `payload` on the cluster's wall as `from`, to every connected
   * socket on every node (DECISIONS: a legacy channel id is a cluster id).
   * `clusterToken` is the caller's `ck_` (or `ak_`) token: a private cluster
   * needs it. Rejects with a not_found MeshError for an unknown cluster and,
   * alike, for a private one without its token. `delivered` counts visible
   * sockets (ghosts are never counted).
   */
  broadcast(clusterId: string, from: string, payload: unknown, clusterToken?: string): Promise<{delivered: number}>
  /** Open sockets and live clusters on this node, now. */
  stats(): RelayStats
}
