/**
 * The seams of the registry: what the core (this area), the search/probe part
 * and the messaging part share. The core builds a {@link RegistryContext},
 * each part is built from it as a {@link RegistryPart}, and
 * `createRegistry({..., parts})` serves them all as one MeshService.
 *
 * spec: registry and agent contract; choices: DECISIONS "Registry and agent contract" (docs/registry.md, Choices where the spec was silent).
 */
import type {IncomingMessage} from 'node:http'
import type {Duplex} from 'node:stream'
import type {Bus} from '../bus/bus.js'
import type {PeerView} from '../bus/peers.js'
import type {MeshService} from '../http/service.js'
import type {Logger} from '../lib/log.js'
import type {RegistryMetrics} from './metrics.js'
import type {RegistryStore} from './store/store.js'

export type {RegistryStore} from './store/store.js'

/** spec: DiscoveryCard `owner_class`; `core` and `partner` are reserved for the operator. */
export type OwnerClass = 'core' | 'partner' | 'third-party'

/** A JSON object as stored (cards, probe results). */
export type JsonObject = Record<string, unknown>

/**
 * What the prober last learned about an agent. Written by the search/probe
 * part through `store.saveProbe`, read by the core for the directory record
 * (`operational`, `card_match`) and the site's well-known route (`card`).
 */
export interface ProbeResult {
  /** ISO-8601 UTC time of the probe. */
  probed_at: string
  /**
   * The last good PublicCard fetched from `<endpoint>/.well-known/agent.json`:
   * kept when a later fetch fails (see `card_error`), null only when no fetch
   * ever succeeded. DECISIONS: the site serves this cached copy, never a proxy.
   */
  card: JsonObject | null
  /** ISO-8601 UTC time of the fetch that returned `card`; null without a card. Absent in results saved before it existed. */
  card_fetched_at?: string | null
  /** The latest card fetch failure since `card` was fetched, or null when the latest fetch succeeded. */
  card_error?: CardFetchFailure | null
  /** Liveness as this probe read it; absent in results saved before it existed. */
  live_check?: LiveCheck | null
  /** spec Discovery qualities: true/false, null = never probed / unknown. */
  operational: boolean | null
  /** spec: `"<n>/<total>"`, or null when no skill declares `returns`. */
  card_match: string | null
  /** Per-skill detail (free-form for the prober; the core only passes it through). */
  skills?: Array<{id: string; url: string; answering: boolean | null; status?: number | null; card_match?: string | null}>
  /** Short reason when the probe failed (never a stack trace). */
  error?: string | null
  [extra: string]: unknown
}

/** A PublicCard fetch that failed: when, and a one-line reason (`card_unreachable: …`, `card_invalid: …`). */
export interface CardFetchFailure {
  at: string
  reason: string
}

/**
 * Liveness as the prober derived it (spec Agent side `/health`; DECISIONS: an
 * agent with no /health is live per `availability.now`). Shown as `live_check`
 * on the directory record, the network view, search results and the agent page.
 */
export interface LiveCheck {
  /** True when `/health` answered `{ok: true}`, or (no /health) the card says `availability.now: true`. */
  ok: boolean
  /** `health`: `GET /health` answered (or failed); `availability`: it is missing (404) and the card decided. */
  source: 'health' | 'availability'
  /** ISO-8601 UTC time of the check (the probe's `probed_at`). */
  checked_at: string
}

/** One agent as the store holds it. The api key is held only as a SHA-256 hex hash. */
export interface AgentRecord {
  agentId: string
  /** Lowercase hex SHA-256 of the api key; the key itself is never stored. */
  apiKeyHash: string
  /** Ed25519 public key, base64 of the raw 32 bytes; bound only with a Mesh-Sig proof. */
  pubkey: string | null
  endpoint: string | null
  /** spec: ≤ 12 × ≤ 50 chars; DECISIONS: kept equal to the card's tags. */
  capabilities: string[]
  /** The latest DiscoveryCard (opaque JSON apart from the hoisted fields). */
  agentCard: JsonObject | null
  /** Top-level `description` of the last PATCH me (falls back to the card's). */
  description: string | null
  /** Hoisted from the card's `name`. */
  displayName: string | null
  ownerClass: OwnerClass
  brand: string | null
  createdAtMs: number
  /** Last token call (the heartbeat watermark); null before the first one. */
  lastSeenMs: number | null
  probe: ProbeResult | null
}

/** The fields registration writes. */
export type NewAgent = Pick<AgentRecord, 'agentId' | 'apiKeyHash' | 'pubkey' | 'endpoint' | 'capabilities' | 'createdAtMs'>

/** The fields a card push, state merge or key rotation may change. */
export type AgentPatch = Partial<
  Pick<AgentRecord, 'apiKeyHash' | 'pubkey' | 'endpoint' | 'capabilities' | 'agentCard' | 'description' | 'displayName' | 'ownerClass' | 'brand'>
>

/** The bus subject registry events travel on. */
export const REGISTRY_EVENTS_SUBJECT = 'registry.events'

export type RegistryEventType = 'agent.registered' | 'agent.card' | 'agent.online' | 'agent.offline'

/** One registry event, JSON on the bus subject `registry.events`. */
export interface RegistryEvent {
  type: RegistryEventType
  agent_id: string
  /** ISO-8601 UTC. */
  at: string
}

/**
 * Typed access to `registry.events` on the Bus. Every node receives every
 * event (its own included); delivery is at-most-once and an `agent.offline`
 * may arrive once per node running the sweep, so handlers must be idempotent.
 */
export interface RegistryEvents {
  /** Publishes on the bus; `at` defaults to the context clock. */
  publish(type: RegistryEventType, agentId: string): void
  /** Returns a function ending the subscription. */
  subscribe(handler: (event: RegistryEvent) => void): () => void
}

/** A request to check against its `Mesh-Sig` header. */
export interface SignedRequestInput {
  method: string
  /** Path including the query string, as sent (DECISIONS). */
  path: string
  /** The raw body bytes (empty for GET). */
  body: Uint8Array | string
  /** The `Mesh-Sig` header value, if any. */
  header: string | undefined
  /**
   * The audience the request was addressed to as the adapter saw it
   * (src/identity/audience.ts requestAudience: Host, or X-Forwarded-Proto/Host
   * behind --proxy); used only when the registry has no public URL of its own
   * to check v2 signatures against (`audienceFromRequest`).
   */
  requestAudience?: string | null
}

/** Who signed a request that verified. */
export interface SignerIdentity {
  /** base64 of the raw 32-byte Ed25519 public key. */
  pubkey: string
  /**
   * issue 18: the signature is v2 and names this registry. A v1 signature
   * (false) names no server and could be a replay of one made for another
   * registry: it never binds a pubkey nor rotates an api_key.
   */
  audienceBound: boolean
}

/** Hook the messaging part registers so PATCH me can set or clear a webhook. */
export interface WebhookHook {
  /** url null removes the webhook. Returns the HMAC secret when one was created. */
  set(agentId: string, url: string | null): Promise<{webhook_secret?: string}>
}

/** Limits of the registry (spec Limits + DECISIONS; rate limits are mesh's choice, configurable). */
export interface RegistryLimits {
  /** Largest request body accepted, bytes. */
  bodyBytes: number
  /** Requests per minute per client IP, over every registry route. */
  perIpPerMinute: number
  /** Requests per minute per verified identity (JWT agent or Mesh-Sig key). */
  perIdentityPerMinute: number
  /** Registrations per hour per client IP. */
  registrationsPerIpPerHour: number
}

/** What the core hands to the search/probe and messaging parts. */
export interface RegistryContext {
  store: RegistryStore
  bus: Bus
  /** Milliseconds since the epoch; injected so tests control time. */
  clock: () => number
  logger: Logger
  /** DECISIONS: base of hub_url, handle, invoke URLs; no trailing slash. */
  publicUrl: string
  limits: RegistryLimits
  /**
   * Verifies a Bearer JWT minted by the token route and returns its agent_id.
   * Throws a 401 MeshError (`missing_token`, `invalid_token`). Counts one hit
   * against the per-identity rate limit (429 when over).
   */
  authenticate(bearerToken: string | undefined): Promise<string>
  /**
   * Verifies a `Mesh-Sig` header (skew ±120 s, Ed25519, nonce never twice
   * across nodes); the nonce is consumed only when the signature is valid.
   * Throws a 401 MeshError when absent or invalid.
   */
  verifySignedRequest(request: SignedRequestInput): Promise<SignerIdentity>
  events: RegistryEvents
  /** Set by the messaging part when it is built; absent means webhooks are not served. */
  webhooks?: WebhookHook
  /** Where the parts count what they do (`--metrics`); createRegistryContext sets NO_REGISTRY_METRICS when absent. */
  metrics?: RegistryMetrics
}

/**
 * One optional piece of the registry built by another engineer from the
 * context (search + prober, message bus). The registry runs every part's
 * middleware after its own routes, offers it WebSocket upgrades, starts it
 * and closes it.
 */
export interface RegistryPart {
  name: string
  /** Handles the part's own paths; calls next() for everything else. */
  middleware?: MeshService['middleware']
  /** Takes the upgrade and returns true when the path is the part's. */
  upgrade?(request: IncomingMessage, socket: Duplex, head: Buffer): boolean
  start?(): Promise<void> | void
  close(): Promise<void> | void
  /** This node's view of the other registry nodes, for `/health` (the messaging part tracks them). */
  nodeView?(): RegistryNodeView
  /** Runs the part's node heartbeat now (tests, operators). */
  heartbeat?(): Promise<void>
}

/** The registry nodes a node sees in the shared store (docs/registry.md "Health"). */
export interface RegistryNodeView {
  peers: PeerView[]
  /** ISO time of the last heartbeat that read them; null before the first. */
  checked_at: string | null
}
