/**
 * A JSON document served as-is on every request (the PublicCard, the A2A
 * card): serialised once, with a strong ETag over its bytes, so a GET costs
 * no JSON work and a revalidation answers 304 (spec Agent side: the
 * PublicCard is "cacheable").
 */
import {createHash} from 'node:crypto'

export interface ServedDocument {
  /** The exact bytes sent. */
  body: Buffer
  /** Strong validator: a quoted hash of `body`. */
  etag: string
}

export function servedDocument(value: unknown): ServedDocument {
  const body = Buffer.from(JSON.stringify(value), 'utf8')
  return {body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`}
}

/**
 * RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly
 * (a `W/` prefix is ignored), so a cache holding either form gets its 304.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim()
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true
  }
  return false
}
