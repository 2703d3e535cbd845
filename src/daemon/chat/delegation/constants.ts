/**
 * Delegation's names and numbers (docs/daemon.md, Delegation). The depth and
 * fan-out defaults are the chat area's (DECISIONS: Delegation — 4 and 5,
 * `mesh serve` flags); these are the rest.
 */

/** `dlg_` + 48 random bits in hex: the id a brief and its report share. */
export const REQUEST_ID_PREFIX = 'dlg_'
export const REQUEST_ID = /^dlg_[0-9a-f]{6,32}$/

/** A member's single session (CHAT.md, Words): `m-<member id>`. */
export const SESSION_PREFIX = 'm-'
export const sessionOf = (member: string) => `${SESSION_PREFIX}${member}`
/** The member whose single session `conv` is, or null for any other conv. */
export const sessionMemberOf = (conv: string | null): string | null => (conv && conv.startsWith(SESSION_PREFIX) ? conv.slice(SESSION_PREFIX.length) : null)

/** `.mesh/.runtime/chat/ledger.json`: the open-request ledger, kept across restarts. */
export const LEDGER_FILE = ['.runtime', 'chat', 'ledger.json'] as const
/** Closed rows kept (newest first) for `GET /chat/delegations` and `mesh team watch`. */
export const RECENT_CLOSED_KEPT = 100

/** spec v38: commits are made by this member when the roster has it (DECISIONS: Base team). */
export const GIT_MANAGER = 'git-manager'

/** Who asked when a delegation comes from `POST /chat/delegate` without `from_conv`. */
export const OPERATOR = 'operator'

/** DECISIONS: Delegation — the four refusals and their statuses. */
export const REFUSAL_STATUS = {
  'delegation-reentry': 409,
  'delegation-cycle': 409,
  'delegation-max-depth': 409,
  'delegation-fan-out': 429,
} as const
export type RefusalCode = keyof typeof REFUSAL_STATUS

/** A report's summary is cut here in the requester's wake and the ledger (the wake is a turn's input, not a log). */
export const SUMMARY_MAX_CHARS = 4_000
/** Files listed in a wake or a commit brief; the rest are counted. */
export const FILES_LISTED = 50
