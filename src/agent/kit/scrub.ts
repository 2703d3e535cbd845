/**
 * spec Authentication 6: a bring-your-own-key caller's credential is never
 * logged. The logger redacts secret-looking keys already; these helpers also
 * cover the credential turning up inside a message or an error text (a
 * provider SDK that echoes the key it was given, a handler that logs it).
 */
import type {Logger} from '../../lib/log.js'

const REDACTED = '[redacted]'

/** `text` with every occurrence of `secret` replaced. */
export function scrubText(text: string, secret: string | null): string {
  return secret && text.includes(secret) ? text.split(secret).join(REDACTED) : text
}

/** Fields whose strings, at any depth, no longer contain `secret`. */
function scrubFields(value: unknown, secret: string, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value, secret)
  if (depth > 8 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => scrubFields(item, secret, depth + 1))
  if (value instanceof Error) return scrubText(String(value.stack ?? value), secret)
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) out[key] = scrubFields(inner, secret, depth + 1)
  return out
}

/** A logger that removes `secret` from every message and field before the real one sees them. */
export function scrubbingLogger(logger: Logger, secret: string): Logger {
  const at = (level: keyof Logger) => (message: string, fields?: Record<string, unknown>) =>
    logger[level](scrubText(message, secret), fields && (scrubFields(fields, secret) as Record<string, unknown>))
  return {debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error')}
}
