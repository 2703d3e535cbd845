/**
 * Checks of the server flags (`mesh serve registry`, `mesh serve relay`)
 * before anything starts; a bad value is a usage error (exit 2) that never
 * echoes the password of a URL. The words for a failed start are in
 * serve-failure.ts.
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
