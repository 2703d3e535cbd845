/**
 * The agent kit's names and numbers, named once (spec: registry-and-agent-contract.md,
 * "Agent side (every agent implements)"; DECISIONS: CORS for agents, Paid calls).
 */
import {PAYMENT_HEADERS, PAYMENT_PROOF_HEADER} from '../../protocol/agent-card.js'

/** spec Agent side: the PublicCard at PUBLIC_CARD_PATH; skills under SKILL_PATH_PREFIX (shared with callers). */
export {PUBLIC_CARD_PATH, SKILL_PATH_PREFIX} from '../../protocol/agent-card.js'
/** DECISIONS A2A card: the A2A AgentCard derived from the PublicCard. */
export const A2A_CARD_PATH = '/.well-known/agent-card.json'
export const HEALTH_PATH = '/health'
export const BANNER_PATH = '/'
export const WHOAMI_PATH = '/v1/whoami'
export const TOPUP_PATH = '/v1/topup'
/** Ids under /v1/ the kit serves itself: no skill may take them. */
export const RESERVED_SKILL_IDS: readonly string[] = ['whoami', 'topup']

/** What `/` calls the service; `role` is always `agent`. */
export const BANNER_SERVICE = 'mesh-agent'

/** Request body cap (413 above it); spec is silent, 1 MiB fits any JSON a skill should take. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/** spec: the PublicCard is "cacheable"; five minutes keeps a version bump visible within a heartbeat. */
export const CARD_CACHE_CONTROL = 'public, max-age=300'

/**
 * spec Agent side CORS + DECISIONS CORS for agents: on every response,
 * errors and 404s included, so a browser page on another origin can sign
 * (mesh-sig), pay (x-payment-proof) and read a 402's X-Payment-* headers.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // issue 24: A2A's version and extension headers, MCP's protocol-version and session headers.
  'Access-Control-Allow-Headers': `content-type, authorization, mesh-sig, ${PAYMENT_PROOF_HEADER.toLowerCase()}, a2a-version, a2a-extensions, mcp-protocol-version, mcp-session-id, accept`,
  'Access-Control-Expose-Headers': [...Object.values(PAYMENT_HEADERS), 'mcp-session-id'].join(', '),
}
/** Preflight answers may be cached by the browser this long (seconds); not in the spec, saves a round trip per call. */
export const CORS_MAX_AGE_SECONDS = 600

/** The proof header as Node presents it (lower case). */
export const PROOF_HEADER = PAYMENT_PROOF_HEADER.toLowerCase()

/**
 * issue 24: A2A JSON-RPC is served at the agent's base URL (`POST /`), the card's `url`: an A2A 0.3 client posts
 * JSON-RPC to the card's `url`, and DECISIONS (A2A card) keeps the A2A card's url the PublicCard's.
 */
export const A2A_RPC_PATH = '/'
/** spec Agent side, optional A2A routes: `POST /tasks/send` (a message/send body) and `GET /tasks/<id>`. */
export const TASKS_SEND_PATH = '/tasks/send'
export const TASKS_PATH_PREFIX = '/tasks/'
/** issue 24: MCP Streamable HTTP, one tool per skill. */
export const MCP_PATH = '/mcp'
/** A2A 1.0: the protocol version a request asks for; absent means 0.3. */
export const A2A_VERSION_HEADER = 'a2a-version'
export const A2A_VERSIONS = {current: '1.0', legacy: '0.3'} as const
/** The A2A x402 payments extension (google-agentic-commerce/a2a-x402, spec v0.2): a paid skill's requirement travels in task metadata. */
export const X402_A2A_EXTENSION_URI = 'https://github.com/google-agentic-commerce/a2a-x402/blob/main/spec/v0.2'
/** Tasks the A2A handler remembers for `GetTask` (oldest dropped first): a bound, not a store. */
export const A2A_TASKS_KEPT = 1000
