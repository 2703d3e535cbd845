/** Pay-per-call's numbers, named once (spec: Paid call table, Limits, prepaid alternative; DECISIONS: Paid calls). */

/** spec Pricing: `<chain>-devnet` for the test network; configuration only (spec Versioning 5). */
export const DEFAULT_NETWORK = 'solana-devnet'

/** spec Limits: 5 to 25 suggested; 10 is in that range and enough to try a skill. */
export const DEFAULT_FREE_PER_DAY = 10
/** spec Limits: the free allowance has a 24 h expiry. */
export const ALLOWANCE_WINDOW_MS = 24 * 60 * 60 * 1000

/** DECISIONS Paid calls: the nonce lifetime, which is also the retry window of a served proof (its stored answer is kept that long). */
export const DEFAULT_NONCE_TTL_MS = 10 * 60 * 1000
/**
 * Issue 18 "one payment buys one answer": the largest paid answer (JSON body
 * bytes) kept for idempotent replay. 1 MiB, the kit's request cap: what a
 * skill answers as JSON is rarely bigger, and a store row stays small. A
 * bigger answer is sent once and a retry is told it was not kept.
 */
export const DEFAULT_MAX_STORED_ANSWER_BYTES = 1024 * 1024
/** 16 random bytes, written as 32 lowercase hex characters (memo- and URL-safe). */
export const NONCE_BYTES = 16
/** A run of lowercase hex at least one nonce long, in a memo. */
export const HEX_RUN = /[0-9a-f]{32,}/g
/** At most this many 32-character windows of a memo are looked up as nonces. */
export const MAX_NONCE_CANDIDATES = 64
/** Unused nonces are kept this long past expiry, so a late proof hears "expired" rather than "unknown nonce". */
export const NONCE_RETENTION_MS = 24 * 60 * 60 * 1000

/** spec prepaid alternative: the deposit scan runs every 1 to 5 minutes. */
export const TOPUP_INTERVAL_MIN_MS = 60_000
export const TOPUP_INTERVAL_MAX_MS = 300_000
export const DEFAULT_TOPUP_INTERVAL_MS = 120_000
/**
 * Issue 18: how long a topup's proof-of-control challenge (the message to sign,
 * the memo of a first deposit) stays usable; long enough to open a wallet and
 * make a transfer, short enough that an unproven claim on an address lapses.
 */
export const PAYER_CHALLENGE_TTL_MS = 30 * 60 * 1000
/** Deposits up to this long before a binding still count (block times are estimates). */
export const BINDING_CLOCK_SLACK_MS = 120_000
/** At most this many pages of getSignaturesForAddress per scan (1,000 signatures each). */
export const MAX_SCAN_PAGES = 10

/** The Solana Pay label when neither `label` nor `card` is given. */
export const DEFAULT_LABEL = 'mesh agent'
/** The kit's prepaid route (AGENT-KIT: `POST /v1/topup`), named in hints. */
export const TOPUP_ROUTE = 'POST /v1/topup'
