import {MAX_SLUG_LENGTH} from './constants.js'

/**
 * The kebab-case slug of a cluster name (DECISIONS: Slug). Accents are
 * folded ("Café" → "cafe"), every run of other characters becomes one dash.
 * A name with no latin letter or digit has no slug (null): such a public
 * cluster is reached by id only. Slugs never contain "_", so they can never
 * be mistaken for a `c_` id.
 */
export function slugify(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '')
  return slug === '' ? null : slug
}

/** True for strings shaped like a slug (what GET /v1/clusters/<slug> looks up). */
export const looksLikeSlug = (value: string) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) && value.length <= MAX_SLUG_LENGTH
