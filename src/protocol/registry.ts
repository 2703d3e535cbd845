/**
 * The registry's wire rules that both ends check: the server refuses what
 * breaks them (400), the CLI refuses it before any call (usage error).
 * Nothing here imports anything, so clients load no server code for them.
 */

/** spec: registry Limits — agent_id is 3 to 64 characters of [A-Za-z0-9_-] (also safe as a bus subject token). */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9_-]{3,64}$/
/** The same rule in words, for error messages. */
export const AGENT_ID_RULE = '3 to 64 characters of A-Z a-z 0-9 _ -'

/** Path of the agent WebSocket bus (docs/messaging.md, WebSocket bus). */
export const AGENT_WS_PATH = '/v1/agents/ws'

/** spec: registry Limits — a DiscoveryCard is at most 16 KB serialized and nests at most 16 levels (400, never truncated). */
export const MAX_CARD_BYTES = 16 * 1024
export const MAX_CARD_DEPTH = 16

/**
 * True when `value` nests deeper than `limit` levels ({} and [] are one
 * level). Stops descending past the limit, so hostile input cannot exhaust the stack.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false
  if (limit <= 0) return true
  // Loops rather than Object.values: every heartbeat body passes through here.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeperThan(value[i], limit - 1)) return true
    return false
  }
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && nestsDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true
  }
  return false
}

/** What breaks the card limits (`card_too_deep`, `card_too_large`), or null; the caller turns it into its own error. */
export function cardLimitProblem(card: Record<string, unknown>, field = 'agent_card', checkDepth = true): {code: string; message: string} | null {
  if (checkDepth && nestsDeeperThan(card, MAX_CARD_DEPTH)) return {code: 'card_too_deep', message: `${field} nests deeper than ${MAX_CARD_DEPTH} levels`}
  const bytes = Buffer.byteLength(JSON.stringify(card), 'utf8')
  if (bytes > MAX_CARD_BYTES) return {code: 'card_too_large', message: `${field} is ${bytes} bytes serialized; the limit is ${MAX_CARD_BYTES}`}
  return null
}
