import {invalid} from '../../lib/errors.js'
import {kebabCase} from '../../lib/kebab-case.js'
import {SLUG} from '../constants.js'

const MAX_SLUG = 32

/**
 * A slug (`^[a-z][a-z0-9-]{1,31}$`) from a free title: accents folded,
 * lower case, every run of other characters one hyphen, cut at a word boundary
 * to 32 characters. A title that starts with a digit gets `task-` in front; one
 * that leaves fewer than two characters becomes `task` (or `<x>-task`).
 */
export function slugify(title: string, fallback = 'task'): string {
  let slug = kebabCase(title)
  if (slug === '') return fallback
  if (!/^[a-z]/.test(slug)) slug = `${fallback}-${slug}`
  if (slug.length > MAX_SLUG) {
    const cut = slug.slice(0, MAX_SLUG)
    const lastHyphen = cut.lastIndexOf('-')
    slug = (lastHyphen >= 2 && slug[MAX_SLUG] !== '-' ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '')
  }
  if (slug.length < 2) slug = `${slug}-${fallback}`
  return slug
}

/** Throws `slug_invalid` unless `slug` has the standard's shape. */
export function assertSlug(slug: string, what = 'slug'): string {
  if (!SLUG.test(slug)) {
    throw invalid('usage_slug_invalid', `The ${what} "${slug}" must be 2–32 characters of a-z, 0-9 and "-", starting with a letter.`, {field: what})
  }
  return slug
}
