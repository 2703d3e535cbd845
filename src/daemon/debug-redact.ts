/**
 * Redaction of debug-stream events, exactly as the spec says (Logs and debug
 * stream): values under the keys token, authorization, bearer, api_key,
 * apikey, secret, password in `data` are masked at any depth; any string in
 * `data` that starts with the bearer prefix and is longer than 24 characters
 * is redacted; `msg` is not scrubbed.
 */
import {BEARER_PREFIX, BEARER_REDACT_OVER, DEBUG_MASKED_KEYS} from './constants.js'

export const MASKED = '***'
export const REDACTED = '[redacted]'
const MASKED_KEYS: ReadonlySet<string> = new Set(DEBUG_MASKED_KEYS)
/** Deeper data is cut here, so a hostile event cannot exhaust the stack. */
const MAX_DEPTH = 16

const redactString = (value: string) =>
  value.length > BEARER_REDACT_OVER && value.toLowerCase().startsWith(BEARER_PREFIX.toLowerCase()) ? REDACTED : value

export function redactData(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value)
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH) return '[too deep]'
  if (Array.isArray(value)) return value.map((item) => redactData(item, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    out[key] = MASKED_KEYS.has(key.toLowerCase()) && inner !== null && inner !== undefined ? MASKED : redactData(inner, depth + 1)
  }
  return out
}
