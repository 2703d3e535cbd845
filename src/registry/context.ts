/**
 * The RegistryContext: what every registry part shares (store, bus, clock,
 * auth, events, limits). Built once per process by createRegistryContext and
 * handed to the search/probe and messaging parts, then to createRegistry.
 */
import {createHash, timingSafeEqual} from 'node:crypto'
import type {Bus} from '../bus/bus.js'
import {normalizeAudience} from '../identity/audience.js'
import {verifyMeshSig} from '../identity/mesh-sig.js'
import {createRateLimiter, type RateLimiter} from '../http/rate-limit.js'
import {unauthorized} from '../lib/errors.js'
import type {Logger} from '../lib/log.js'
import {DEFAULT_LIMITS} from './constants.js'
import {createRegistryEvents} from './events.js'
import {NO_REGISTRY_METRICS, type RegistryMetrics} from './metrics.js'
import type {RegistryStore} from './store/store.js'
import {createTokenIssuer, keyHint, type TokenIssuer} from './tokens.js'
import type {AgentRecord, RegistryContext, RegistryLimits} from './types.js'

export interface RegistryContextOptions {
  store: RegistryStore
  bus: Bus
  logger: Logger
  /** Base URL for hub_url and handles; a trailing slash is dropped. Its origin is the audience v2 signatures must name. */
  publicUrl: string
  /**
   * issue 18: check v2 signatures against the origin each request was
   * addressed to instead of publicUrl's (`--proxy` without `--public-url`:
   * the registry does not know its public address). Weaker: a replayer
   * chooses the Host he sends.
   */
  audienceFromRequest?: boolean
  /** HS256 secret shared by every node (≥ 32 bytes). */
  jwtSecret: Uint8Array
  /** The operator's admin key (sets reserved owner_class); omit to disable. */
  adminKey?: string
  clock?: () => number
  limits?: Partial<RegistryLimits>
  /** What the registry counts (`--metrics`); default nothing. */
  metrics?: RegistryMetrics
}

/** The context plus what only the core uses (token minting, limiters, admin check). */
export interface CoreRegistryContext extends RegistryContext {
  metrics: RegistryMetrics
  tokens: TokenIssuer
  ipLimiter: RateLimiter
  registrationLimiter: RateLimiter
  /** Like authenticate, but returns the agent's record the revocation check read (the caller needs it anyway). */
  authenticateAgent(bearerToken: string | undefined): Promise<AgentRecord>
  /** Constant-time check of an `x-admin-key` header value. */
  isAdminKey(candidate: string | undefined): boolean
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

const BEARER = /^Bearer\s+(\S+)\s*$/i

export function createRegistryContext(options: RegistryContextOptions): CoreRegistryContext {
  const clock = options.clock ?? Date.now
  const limits: RegistryLimits = {...DEFAULT_LIMITS, ...options.limits}
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`Registry limit ${name} must be a positive number`)
  }
  const tokens = createTokenIssuer({secret: options.jwtSecret, clock})
  const identityLimiter = createRateLimiter({limit: limits.perIdentityPerMinute, windowMs: 60_000, now: clock})
  const adminDigest = options.adminKey ? sha256(options.adminKey) : null
  const publicUrl = options.publicUrl.replace(/\/+$/, '')
  let ownAudience: string
  try {
    ownAudience = normalizeAudience(publicUrl)
  } catch (error) {
    throw new TypeError(`Registry publicUrl: ${(error as Error).message}`)
  }

  async function authenticateAgent(bearerToken: string | undefined): Promise<AgentRecord> {
    const raw = bearerToken?.trim()
    if (!raw) throw unauthorized('missing_token', 'Send Authorization: Bearer <token> (from POST /v1/agents/token)')
    const token = BEARER.exec(raw)?.[1] ?? raw
    const claims = await tokens.verify(token)
    const agent = await options.store.getAgent(claims.agentId)
    // A token minted before a key rotation (or for a deleted agent) no longer counts, on whichever node it was rotated.
    if (!agent || keyHint(agent.apiKeyHash) !== claims.keyHint) {
      throw unauthorized('invalid_token', 'The bearer token was revoked; get a new one from /v1/agents/token')
    }
    identityLimiter.hit(`agent:${claims.agentId}`)
    return agent
  }

  const context: CoreRegistryContext = {
    store: options.store,
    bus: options.bus,
    clock,
    logger: options.logger,
    publicUrl,
    limits,
    events: createRegistryEvents({bus: options.bus, clock, logger: options.logger}),
    metrics: options.metrics ?? NO_REGISTRY_METRICS,
    tokens,
    ipLimiter: createRateLimiter({limit: limits.perIpPerMinute, windowMs: 60_000, now: clock}),
    registrationLimiter: createRateLimiter({limit: limits.registrationsPerIpPerHour, windowMs: 3_600_000, now: clock}),

    async authenticate(bearerToken) {
      return (await authenticateAgent(bearerToken)).agentId
    },
    authenticateAgent,

    async verifySignedRequest(request) {
      if (!request.header) throw unauthorized('signature_required', 'This request needs a Mesh-Sig header')
      const signer = await verifyMeshSig({
        header: request.header,
        method: request.method,
        path: request.path,
        body: request.body,
        nonces: options.store,
        clock,
        audience: options.audienceFromRequest ? (request.requestAudience ?? null) : ownAudience,
      })
      identityLimiter.hit(`key:${signer.pubkey}`)
      return {pubkey: signer.pubkey, audienceBound: signer.audience !== null}
    },

    isAdminKey(candidate) {
      if (!adminDigest || !candidate) return false
      return timingSafeEqual(adminDigest, sha256(candidate))
    },
  }
  return context
}
