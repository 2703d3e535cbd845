import {MAX_SLUG_LENGTH} from './constants.js'

/**
 * Kebab-case of a text: accents folded ("Café" → "cafe"), lowercase, every
 * run of other characters one dash, no dash at either end; "" when nothing
 * is left. Slugs never contain "_", so they can never be mistaken for a
 * `c_` id or a `b_`/`p_` id. Shared by cluster and board slugs.
 */
export function kebabCase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

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
export const looksLikeSlug = (value: string) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) && value.length <= MAX_SLUG_LENGTH
