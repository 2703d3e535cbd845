/**
 * A small structured logger for servers: one line per event on stderr, plain
 * text on a TTY and NDJSON otherwise. Values under secret-looking keys are
 * masked so tokens and keys never reach logs.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

const LEVEL_ORDER: Record<LogLevel, number> = {debug: 10, info: 20, warn: 30, error: 40}
const SECRET_KEY = /token|authorization|bearer|api_?key|secret|password|proof/i

/** Replaces values stored under secret-looking keys, at any depth. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && inner != null ? '[redacted]' : redact(inner, depth + 1)
  }
  return out
}

export interface LoggerOptions {
  level?: LogLevel
  /** Where lines go; defaults to process.stderr. */
  write?: (line: string) => void
  json?: boolean
  name?: string
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = LEVEL_ORDER[options.level ?? (process.env.MESH_LOG_LEVEL as LogLevel) ?? 'info'] ?? 20
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'))
  const json = options.json ?? !process.stderr.isTTY
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (LEVEL_ORDER[level] < threshold) return
    const safe = fields ? (redact(fields) as Record<string, unknown>) : undefined
    if (json) {
      write(JSON.stringify({ts: new Date().toISOString(), level, name: options.name, msg: message, ...safe}))
    } else {
      const extra = safe && Object.keys(safe).length > 0 ? ' ' + JSON.stringify(safe) : ''
      write(`${level.padEnd(5)} ${options.name ? `[${options.name}] ` : ''}${message}${extra}`)
    }
  }
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  }
}

/** A logger that drops everything; the default in tests. */
export const silentLogger: Logger = {debug() {}, info() {}, warn() {}, error() {}}
