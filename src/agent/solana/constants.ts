/**
 * Solana numbers and names the agent's chain code uses, named once (spec:
 * Pay-per-call wire flow; Solana JSON-RPC documentation for getTransaction and
 * getSignaturesForAddress).
 */

/** The system program: native SOL `transfer` and `transferWithSeed` instructions. */
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111'

/** The SPL memo program, v2 (what wallets and Solana Pay use) and v1 (still parsed by RPC nodes). */
export const MEMO_PROGRAM_IDS: readonly string[] = ['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']

/** The memo program's log line when an RPC node could not parse the instruction: `Program log: Memo (len 5): "hello"`. */
export const MEMO_LOG_LINE = /^Program log: Memo \(len \d+\): "(.*)"$/

/** How long one RPC request may take before the proof is answered 503 (AGENT-KIT: default 10 s). */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000

/** `Retry-After` (seconds) when the chain node errors or times out (DECISIONS: RPC failures). */
export const CHAIN_RETRY_AFTER_SECONDS = 5

/** getSignaturesForAddress returns at most 1,000 signatures per page. */
export const SIGNATURES_PAGE_LIMIT = 1000
