/**
 * Reading a search request. spec "Site and search": `{prompt, filters?:
 * {operational_only, limit}}`, filter keys at the top level accepted as an
 * alias, keys not understood returned in `ignored_keys`.
 */
import {assertValid} from '../../lib/schemas.js'
import {DEFAULT_LIMIT, MAX_LIMIT} from './constants.js'
import {normalizeMediaType, type SearchFilters} from './filters.js'

export interface SearchRequest {
  prompt: string
  filters: SearchFilters
  /** Top-level keys and `filters.<key>` keys that were not understood, in request order. */
  ignoredKeys: string[]
}

interface RawFilters {
  operational_only?: boolean
  limit?: number
  accepts?: string | string[]
  produces?: string | string[]
}

type RawRequest = RawFilters & {prompt: string; filters?: RawFilters & Record<string, unknown>} & Record<string, unknown>

const FILTER_KEYS = new Set(['operational_only', 'limit', 'accepts', 'produces'])
const TOP_LEVEL_KEYS = new Set(['prompt', 'filters', ...FILTER_KEYS])

const mediaTypes = (value: string | string[] | undefined) =>
  [...new Set((value === undefined ? [] : typeof value === 'string' ? [value] : value).map(normalizeMediaType))]

/**
 * Validates a request body against schemas/search-request.schema.json (400
 * `invalid_body` naming the field on a wrong type) and resolves aliases,
 * defaults and the limit cap.
 */
export function parseSearchRequest(body: unknown): SearchRequest {
  const raw = assertValid<RawRequest>('search-request', body)
  const ignoredKeys = Object.keys(raw).filter((key) => !TOP_LEVEL_KEYS.has(key))
  const nested = raw.filters ?? {}
  for (const key of Object.keys(nested)) if (!FILTER_KEYS.has(key)) ignoredKeys.push(`filters.${key}`)
  // `filters` wins over its top-level alias when a request carries both.
  const pick = <K extends keyof RawFilters>(key: K): RawFilters[K] => (nested[key] !== undefined ? nested[key] : raw[key])
  const limit = pick('limit') ?? DEFAULT_LIMIT
  return {
    prompt: raw.prompt,
    filters: {
      operationalOnly: pick('operational_only') ?? false,
      limit: Math.min(limit, MAX_LIMIT),
      accepts: mediaTypes(pick('accepts')),
      produces: mediaTypes(pick('produces')),
    },
    ignoredKeys,
  }
}
