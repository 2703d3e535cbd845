/** Board slugs: kebab-case, unique per cluster; what `#slug` in a message names. */
import {SLUG_MAX_CHARS} from './constants.js'

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A title in kebab-case ("Rides & Lifts!" → "rides-lifts"); "" when nothing is left. */
export function slugify(title: string): string {
  const kebab = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (kebab.length <= SLUG_MAX_CHARS) return kebab
  return kebab.slice(0, SLUG_MAX_CHARS).replace(/-+[^-]*$/, '') || kebab.slice(0, SLUG_MAX_CHARS)
}
