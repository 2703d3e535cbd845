/**
 * Client of a registry's search route, `POST /v1/search` (spec "Site and
 * search"). Small on purpose: the CLI's `mesh search` and scripts use it.
 * Importing this file loads nothing heavy.
 */
import {MeshError} from '../lib/errors.js'
import type {SearchResponse, SearchResultItem} from '../registry/search/search-service.js'
import {callJson, resolveServerUrl} from './http-json.js'

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

/** One result (DECISIONS fields, plus what the registry adds): the search service's own type. */
export type SearchHit = SearchResultItem

/** The answer of `POST /v1/search`. */
export type SearchAnswer = SearchResponse

export interface SearchClientOptions {
  registry: string
  fetch?: typeof fetch
  timeoutMs?: number
}

/** The registry URL from a flag, else `MESH_REGISTRY`, else the default; must be http(s). */
export const resolveRegistryUrl = (flag?: string, env: NodeJS.ProcessEnv = process.env): string =>
  resolveServerUrl({flag, flagName: '--registry', env: REGISTRY_ENV, fallback: DEFAULT_REGISTRY_URL}, env)

/** Calls `POST <registry>/v1/search`; registry errors keep their stable code. */
export async function searchRegistry(query: SearchQuery, options: SearchClientOptions): Promise<SearchAnswer> {
  const registry = options.registry.replace(/\/+$/, '')
  const body = await callJson<unknown>({
    method: 'POST',
    url: new URL('v1/search', registry + '/'),
    body: JSON.stringify(query),
    timeoutMs: options.timeoutMs ?? SEARCH_TIMEOUT_MS,
    fetch: options.fetch,
    service: 'registry',
  })
  const answer = body as Partial<SearchAnswer> | undefined
  if (!answer || !Array.isArray(answer.results)) {
    throw new MeshError('internal', 'registry_bad_answer', `The registry at ${registry} answered POST /v1/search without a results list`)
  }
  return {results: answer.results, count: answer.count ?? answer.results.length, ignored_keys: answer.ignored_keys ?? [], took_ms: answer.took_ms ?? 0}
}
