/**
 * Client of a registry's search route, `POST /v1/search` (spec "Site and
 * search"). Small on purpose: the CLI's `mesh search` and scripts use it.
 * Importing this file loads nothing heavy.
 */
import {listProblem, shapeProblem, type AnswerShape} from '../answer-shape.js'
import type {SearchResponse, SearchResultItem} from '../../registry/wire.js'
import {callJson, resolveServerUrl} from '../http-json.js'

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

// What `mesh search` renders of each result (search-format.ts); other fields are passed through as they come.
const HIT: AnswerShape = {agent_id: 'string', display_name: 'string?', score: 'number', operational: 'boolean?', card_match: 'string?', endpoint: 'string?', invoke: 'array', description: 'string?'}

const INVOKE: AnswerShape = {skill: 'string', url: 'string'}

function searchAnswerProblem(answer: unknown): string | null {
  const results = (answer as {results?: unknown})?.results
  const problem = shapeProblem(answer, {results: 'array'}) ?? listProblem(results as unknown[], HIT, 'results')
  if (problem) return problem
  for (const [i, hit] of (results as Array<{invoke: unknown[]}>).entries()) {
    const invoke = listProblem(hit.invoke, INVOKE, `results[${i}].invoke`)
    if (invoke) return invoke
  }
  return null
}

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
    check: searchAnswerProblem,
  })
  const answer = body as Partial<SearchAnswer> & {results: SearchHit[]}
  return {results: answer.results, count: answer.count ?? answer.results.length, ignored_keys: answer.ignored_keys ?? [], took_ms: answer.took_ms ?? 0}
}
