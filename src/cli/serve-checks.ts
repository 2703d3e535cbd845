/**
 * Checks of the server flags (`mesh serve registry`, `mesh serve relay`)
 * before anything starts, and the words for a start failure: which backend
 * failed, at which host, never with the password of a URL.
 */
import {stat} from 'node:fs/promises'
import {resolve} from 'node:path'
import {MeshError} from '../lib/errors.js'
import {SCHEMA_NAME} from '../store/schema-name.js'
import type {ServerFlagValues} from './server-flags.js'

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
    throw usage(`usage_${flag.slice(2).replace(/-/g, '_')}`, `${flag} must be a URL such as ${example}, got "${raw.replace(/\/\/[^@\s]*@/, '//***@')}"`)
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

export interface CheckedServerFlags {
  /** `--data`, absolute. */
  dataDir: string
  /** `--public-url` without trailing slashes; undefined: the listening address. */
  publicUrl?: string
}

/**
 * Every check of the shared server flags (src/cli/server-flags.ts), in one
 * order for both servers; a bad value is a usage error (exit 2).
 */
export async function checkServerFlags(flags: Pick<ServerFlagValues, 'data' | 'database-schema' | 'nats-prefix'> & Partial<Pick<ServerFlagValues, 'public-url' | 'database-url' | 'nats'>>): Promise<CheckedServerFlags> {
  const publicUrl = flags['public-url']
  if (publicUrl !== undefined) checkUrl(publicUrl, '--public-url', ['http:', 'https:'], 'https://mesh.example.com')
  if (flags['database-url']) checkUrl(flags['database-url'], '--database-url', ['postgres:', 'postgresql:'], 'postgres://mesh@db:5432/mesh')
  if (flags.nats) for (const server of flags.nats.split(',')) checkUrl(server.trim(), '--nats', ['nats:', 'tls:', 'ws:', 'wss:'], 'nats://127.0.0.1:4222')
  checkNames(flags)
  const dataDir = resolve(flags.data)
  await checkDataDir(dataDir)
  return {dataDir, publicUrl: publicUrl?.replace(/\/+$/, '')}
}

/** The passwords of the given URLs (a NATS flag may list several), raw and decoded, to mask in messages. */
function passwordsOf(...urls: Array<string | undefined>): string[] {
  const found: string[] = []
  for (const url of urls.flatMap((u) => (u ? u.split(',') : []))) {
    try {
      const password = new URL(url.trim()).password
      if (password) found.push(password, decodeURIComponent(password))
    } catch {
      // Checked before start: an unparsable URL never got this far.
    }
  }
  return found.filter((p) => p.length > 0)
}

/**
 * The one error both servers give when they cannot start: `listen_failed`
 * (the port or the address), else `<service>_start_failed` naming the backend
 * at fault. Never a URL's password; a MeshError passes unchanged.
 */
export function startFailure(
  error: unknown,
  service: 'registry' | 'relay',
  config: {host: string; port: number; databaseUrl?: string; natsUrl?: string; dataDir: string},
): MeshError {
  if (error instanceof MeshError) return error
  const e = error as NodeJS.ErrnoException & {syscall?: string; port?: number}
  let why: string
  if (e?.syscall === 'listen' || e?.code === 'EADDRINUSE') {
    // Node's error carries the port it tried (the one picked for --port 0).
    const port = e.port || config.port
    why =
      e.code === 'EADDRINUSE' ? `port ${port} is already in use`
      : e.code === 'EACCES' ? `no permission to bind port ${port}`
      : e.code === 'EADDRNOTAVAIL' ? 'no interface of this machine has that address; check --host'
      : (e.code ?? e.message)
    return new MeshError('unavailable', 'listen_failed', `The ${service} could not listen on ${config.host}:${port}: ${why}`)
  }
  const backend = failedBackend(error, config)
  // NATS reports bare codes (CONNECTION_REFUSED); an AggregateError (every address refused) has an empty message.
  why = String(e?.message || e?.code || error)
  // The known passwords first (one may hold an @), then any user:password@ of a URL the driver prints.
  for (const password of passwordsOf(config.databaseUrl, config.natsUrl)) why = why.split(password).join('***')
  why = why.replace(/\/\/[^@\s]*@/g, '//***@')
  return new MeshError('unavailable', `${service}_start_failed`, `The ${service} could not start: ${backend ? `${backend}: ` : ''}${why}`)
}
