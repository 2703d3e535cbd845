/**
 * Checks of `mesh serve registry`'s flags before anything starts, and the
 * words for a start failure: which backend failed, at which host, never
 * with the password of a URL.
 */
import {stat} from 'node:fs/promises'
import {MeshError} from '../lib/errors.js'

import {SCHEMA_NAME} from '../store/schema-name.js'
const usage = (code: string, message: string) => new MeshError('invalid', code, message)

/** host[:port] of a URL, without its user and password; the raw text when it does not parse. */
export function hostOf(raw: string): string {
  try {
    return new URL(raw).host || '(no host)'
  } catch {
    return '(unparsable URL)'
  }
}

/** Parses `raw` and checks its scheme; the message never echoes a password. */
export function checkUrl(raw: string, flag: string, schemes: string[], example: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw usage(`usage_${flag.slice(2).replace(/-/g, '_')}`, `${flag} must be a URL such as ${example}, got "${raw.replace(/\/\/[^/@]*@/, '//***@')}"`)
  }
  if (!schemes.includes(url.protocol) || url.host === '') {
    throw usage(`usage_${flag.slice(2).replace(/-/g, '_')}`, `${flag} must be a ${schemes.map((s) => s.replace(':', '://')).join(' or ')} URL such as ${example}`)
  }
  return url
}

// NATS subject tokens; the schema-name rule is the store's own (src/store/schema-name.ts).
const SUBJECT_PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/

export function checkNames(flags: {'database-schema': string; 'nats-prefix': string}): void {
  if (!SCHEMA_NAME.test(flags['database-schema'])) {
    throw usage('usage_database_schema', `--database-schema must be a lower-case PostgreSQL name ([a-z_][a-z0-9_]*, ≤ 63 characters), got "${flags['database-schema']}"`)
  }
  if (!SUBJECT_PREFIX.test(flags['nats-prefix'])) {
    throw usage('usage_nats_prefix', `--nats-prefix must be NATS subject tokens ([A-Za-z0-9_-] separated by dots), got "${flags['nats-prefix']}"`)
  }
}

/** The data dir must be a folder (or not exist yet: it is created). */
export async function checkDataDir(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : error))
  if (info instanceof Error) {
    if ((info as NodeJS.ErrnoException).code === 'ENOTDIR') throw usage('usage_data_dir', `--data ${dir} lies under a file, not a folder`)
    throw usage('usage_data_dir', `Cannot use --data ${dir}: ${(info as NodeJS.ErrnoException).code ?? info.message}`)
  }
  if (info && !info.isDirectory()) throw usage('usage_data_dir', `--data ${dir} is a file, not a folder`)
}

/** Which backend a start error came from, for the message: "PostgreSQL at db:5432", "NATS at nats:4222", "SQLite in <dir>". */
export function failedBackend(error: unknown, config: {databaseUrl?: string; natsUrl?: string; dataDir: string}): string | null {
  const e = error as {name?: string; code?: string; severity?: unknown; hostname?: string; address?: string; port?: number}
  const network = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH'].includes(e.code ?? '') || error instanceof AggregateError
  const hostOfError = e.hostname ?? (e.address ? `${e.address}${e.port ? `:${e.port}` : ''}` : undefined)
  const matches = (url?: string) => url && hostOfError && (hostOf(url) === hostOfError || new URL(url).hostname === hostOfError)
  if (config.natsUrl && (e.name === 'NatsError' || matches(config.natsUrl))) return `NATS at ${hostOf(config.natsUrl)} (--nats)`
  if (config.databaseUrl && (e.severity !== undefined || matches(config.databaseUrl) || (network && !config.natsUrl))) return `PostgreSQL at ${hostOf(config.databaseUrl)} (--database-url)`
  if (!config.databaseUrl && e.name === 'SqliteError') return `SQLite in ${config.dataDir}`
  return null
}
