/** Board slugs: kebab-case, unique per cluster; what `#slug` in a message names. */
import {kebabCase} from '../../lib/kebab-case.js'
import {SLUG_MAX_CHARS} from './constants.js'

export {SLUG_PATTERN} from '../../protocol/cluster.js'

/** A title in kebab-case ("Rides & Lifts!" → "rides-lifts"), cut at a word end; "" when nothing is left. */
export function slugify(title: string): string {
  const kebab = kebabCase(title)
  if (kebab.length <= SLUG_MAX_CHARS) return kebab
  return kebab.slice(0, SLUG_MAX_CHARS).replace(/-+[^-]*$/, '') || kebab.slice(0, SLUG_MAX_CHARS)
}
