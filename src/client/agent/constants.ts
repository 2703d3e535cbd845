/**
 * Numbers and names of calling an agent's skill (spec: registry-and-agent-contract.md,
 * Agent side endpoints, Pay-per-call wire flow; DECISIONS: Paid calls), named once.
 */

/** How long one skill call may take by default: skills run models, so this is generous. */
export const CALL_TIMEOUT_MS = 60_000
/** How long resolving an agent id through the registry (two small GETs) may take. */
export const RESOLVE_TIMEOUT_MS = 15_000
/** spec Site: the registry serves a live agent's PublicCard (the prober's cached copy) here. */
export const REGISTRY_CARD_PATH = (agentId: string) => `/agent/${encodeURIComponent(agentId)}/.well-known/agent.json`
/** spec Payment challenge: a transaction signature is base58 of 64 bytes. */
export const PROOF_SIGNATURE_BYTES = 64
/** Base58 of 64 bytes is 87 or 88 characters; fewer (down to 64) only with leading zero bytes. */
export const TRANSACTION_SIGNATURE_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/
/** A challenge nonce: what the kit issues (URL-safe or base64 characters), bounded so it fits a memo and a command line. */
export const CHALLENGE_NONCE_PATTERN = /^[A-Za-z0-9._~+/=-]{1,128}$/
/** A network name such as `solana-devnet`. */
export const NETWORK_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/
/** spec Skill: ids are kebab-case path segments; mesh accepts the URL-safe characters and encodes nothing else. */
export const SKILL_ID_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/
