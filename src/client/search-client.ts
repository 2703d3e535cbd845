/**
 * Client of a registry's search route, `POST /v1/search` (spec "Site and
 * search"). Small on purpose: the CLI's `mesh search` and scripts use it.
 * Importing this file loads nothing heavy.
 */
import {MeshError, type ErrorKind} from '../lib/errors.js'

/** Default registry base URL when neither `--registry` nor `MESH_REGISTRY` is given. */
export const DEFAULT_REGISTRY_URL = 'http://127.0.0.1:8080'
/** Environment variable naming the registry base URL. */
export const REGISTRY_ENV = 'MESH_REGISTRY'
/** How long a search call may take. */
export const SEARCH_TIMEOUT_MS = 15_000

/** The request body (filters nested, as the spec writes it). */
export interface SearchQuery {
  prompt: string
  filters?: {
    operational_only?: boolean
    limit?: number
    accepts?: string[]
    produces?: string[]
  }
}

/** One result (DECISIONS fields, plus what the registry adds). */
export interface SearchHit {
  agent_id: string
  display_name: string
  did: string | null
  verified: boolean
  endpoint: string | null
  online: boolean
  operational: boolean | null
  card_match: string | null
  score: number
  invoke: Array<{skill: string; url: string}>
  description?: string | null
  category?: string | null
  tags?: string[]
  [field: string]: unknown
}

export interface SearchAnswer {
  results: SearchHit[]
  count: number
  ignored_keys: string[]
  took_ms: number
}

export interface SearchClientOptions {
  registry: string
  fetch?: typeof fetch
  timeoutMs?: number
}

const STATUS_KIND: Record<number, ErrorKind> = {400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'invalid', 413: 'too_large', 429: 'rate_limited', 503: 'unavailable'}

/** The registry URL from a flag, else `MESH_REGISTRY`, else the default; must be http(s). */
export function resolveRegistryUrl(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const raw = (flag ?? env[REGISTRY_ENV] ?? DEFAULT_REGISTRY_URL).trim()
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new MeshError('invalid', 'usage_registry_url', `--registry must be a URL such as ${DEFAULT_REGISTRY_URL}, got "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MeshError('invalid', 'usage_registry_url', `--registry must be an http(s) URL, got "${raw}"`)
  }
  return url.toString().replace(/\/+$/, '')
}

/** Calls `POST <registry>/v1/search`; registry errors keep their stable code. */
export async function searchRegistry(query: SearchQuery, options: SearchClientOptions): Promise<SearchAnswer> {
  const registry = options.registry.replace(/\/+$/, '')
  const url = new URL('v1/search', registry + '/')
  let response: Response
  try {
    response = await (options.fetch ?? globalThis.fetch)(url, {
      method: 'POST',
      headers: {accept: 'application/json', 'content-type': 'application/json'},
      body: JSON.stringify(query),
      signal: AbortSignal.timeout(options.timeoutMs ?? SEARCH_TIMEOUT_MS),
    })
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)
    throw new MeshError('unavailable', 'registry_unreachable', `Cannot reach the registry at ${registry}: ${reason}`, {cause: error})
  }
  const text = await response.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  if (!response.ok) {
    const error = (body as {error?: {code?: unknown; message?: unknown; field?: unknown}} | undefined)?.error
    const kind = STATUS_KIND[response.status] ?? (response.status >= 500 ? 'internal' : 'invalid')
    const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`
    const message = typeof error?.message === 'string' ? error.message : `The registry answered ${response.status} to POST /v1/search`
    throw new MeshError(kind, code, message, {field: typeof error?.field === 'string' ? error.field : undefined, details: {status: response.status}})
  }
  const answer = body as Partial<SearchAnswer> | undefined
  if (!answer || !Array.isArray(answer.results)) {
    throw new MeshError('internal', 'registry_bad_answer', `The registry at ${registry} answered POST /v1/search without a results list`)
  }
  return {results: answer.results, count: answer.count ?? answer.results.length, ignored_keys: answer.ignored_keys ?? [], took_ms: answer.took_ms ?? 0}
}
