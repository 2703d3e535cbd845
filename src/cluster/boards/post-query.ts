/**
 * The query of `GET …/posts`: `near`, `km`, `lang`, `adult`, `limit`,
 * `cursor`, validated into one typed object (400 with the offending field).
 */
import {invalid} from '../../lib/errors.js'
import {assertShaped, type Shapes} from '../schema-shapes.js'
import {DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MAX_RADIUS_KM} from './constants.js'
import {parseNear, type Point} from './geo.js'

export interface PostListQuery {
  near?: Point
  km?: number
  lang?: string
  adult: boolean
  limit: number
  cursor?: PageCursor
}

/** Keyset position: `t` = newest-first by time, `d` = nearest-first by distance. */
export interface PageCursor {
  mode: 't' | 'd'
  key: number
  id: string
}

type RawQuery = Record<string, string | undefined>

export const isAdult = (value: string | undefined) => value === '1' || value === 'true'

export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.mode, cursor.key, cursor.id])).toString('base64url')
}

function decodeCursor(text: string): PageCursor {
  try {
    const [mode, key, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[]
    if ((mode === 't' || mode === 'd') && typeof key === 'number' && Number.isFinite(key) && typeof id === 'string') return {mode, key, id}
  } catch {
    // fall through to the one error below
  }
  throw invalid('invalid_cursor', 'cursor is not one this server handed out', {field: 'cursor'})
}

/** What each query parameter must look like, said to a person (the schema's regexes are not). */
const QUERY_SHAPES: Record<string, string> = {
  near: 'near must be <lat>,<lon> in degrees, e.g. near=52.52,13.40',
  km: 'km must be a positive number of kilometres, e.g. km=25',
  lang: 'lang must be a language tag such as en or pt-BR',
  limit: 'limit must be a whole number from 1 to 100',
  cursor: 'cursor is not one this server handed out',
}

/** A query checked against its schema, in sentences (schema-shapes.ts); every refusal is `invalid_query`. */
export const assertQuery = <T>(schema: string, raw: unknown, shapes: Shapes): T => assertShaped<T>(schema, raw, shapes, 'invalid_query')

/** Validates the raw query (strings) and reads it. */
export function parsePostListQuery(raw: unknown): PostListQuery {
  const query = assertQuery<RawQuery>('post-list-query', raw, QUERY_SHAPES)
  const result: PostListQuery = {adult: isAdult(query.adult), limit: DEFAULT_PAGE_LIMIT}
  if (query.near !== undefined) {
    const near = parseNear(query.near)
    if (!near) throw invalid('invalid_near', 'near must be <lat>,<lon> with -90 ≤ lat ≤ 90 and -180 ≤ lon ≤ 180', {field: 'near'})
    result.near = near
  }
  if (query.km !== undefined) {
    if (!result.near) throw invalid('km_without_near', 'km is a radius around near; give near=<lat>,<lon> too', {field: 'km'})
    const km = Number(query.km)
    if (!(km > 0 && km <= MAX_RADIUS_KM)) throw invalid('invalid_km', `km must be greater than 0 and at most ${MAX_RADIUS_KM}`, {field: 'km'})
    result.km = km
  }
  if (query.lang !== undefined) result.lang = query.lang
  if (query.limit !== undefined) {
    const limit = Number(query.limit)
    if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) throw invalid('invalid_limit', `limit must be 1 to ${MAX_PAGE_LIMIT}`, {field: 'limit'})
    result.limit = limit
  }
  if (query.cursor !== undefined) {
    result.cursor = decodeCursor(query.cursor)
    if (result.cursor.mode !== (result.near ? 'd' : 't')) {
      throw invalid('invalid_cursor', 'cursor belongs to a listing with a different near', {field: 'cursor'})
    }
  }
  return result
}
