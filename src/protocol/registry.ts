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
