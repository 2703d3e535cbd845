/** Props inheritance (cluster → board → post) and the filters read from it. spec: "Board and post". */
import {ADULT_AGE} from './constants.js'
import type {Props} from './types.js'

const KEYS = ['where', 'lang', 'age_min'] as const

/**
 * Layers props from the farthest (cluster) to the nearest (post): each key
 * takes the value of the nearest layer that sets it. Layers may be undefined
 * or carry keys we do not know (ignored).
 */
export function inheritProps(...layers: Array<Props | undefined | null>): Props {
  const effective: Props = {}
  for (const layer of layers) {
    if (!layer) continue
    for (const key of KEYS) {
      const value = layer[key]
      if (value !== undefined && value !== null) (effective as Record<string, unknown>)[key] = value
    }
  }
  return effective
}

/** Copies only the known keys, so a stored record never carries stray fields. */
export function cleanProps(props: Props | undefined | null): Props {
  return inheritProps(props)
}

/** spec: `age_min` ≥ 18 gates reading behind `adult=1`. */
export const isAgeGated = (props: Props) => (props.age_min ?? 0) >= ADULT_AGE

/**
 * Language filter: `en` matches `en` and `en-GB`; `en-GB` matches only
 * `en-GB`. Case-insensitive, as BCP 47 tags are.
 */
export function langMatches(wanted: string, actual: string | undefined): boolean {
  if (!actual) return false
  const want = wanted.toLowerCase()
  const have = actual.toLowerCase()
  return have === want || have.startsWith(want + '-')
}
