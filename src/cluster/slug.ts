import {kebabCase} from '../lib/kebab-case.js'
import {MAX_SLUG_LENGTH, SLUG_PATTERN} from './constants.js'

/**
 * The slug of a cluster name (DECISIONS: Slug), at most MAX_SLUG_LENGTH
 * characters. A name with no latin letter or digit has no slug (null): such
 * a public cluster is reached by id only.
 */
export function slugify(name: string): string | null {
  const slug = kebabCase(name).slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '')
  return slug === '' ? null : slug
}

/** True for strings shaped like a slug (what GET /v1/clusters/<slug> looks up). */
export const looksLikeSlug = (value: string) => SLUG_PATTERN.test(value) && value.length <= MAX_SLUG_LENGTH
