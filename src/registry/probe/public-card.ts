/**
 * Reading an agent's PublicCard for probing: validation against
 * schemas/public-card.schema.json, the skills to probe, which of them may be
 * content-probed (spec: only inputs from the skill's own `examples`, never
 * with `probe: false`, never a paid skill) and where their endpoints live.
 */
import {describeSchemaError, getValidator} from '../../lib/schemas.js'
import {isPaid, jsonExampleBodies, skillPricing, type CardPricing, type CardSkill, type PublicCard} from '../../protocol/agent-card.js'
import type {JsonObject} from '../types.js'
import {MAX_EXAMPLES_PER_SKILL} from './constants.js'

/** Why a skill that declares `returns` was not content-probed. */
export type CardMatchSkip = 'probe_disabled' | 'paid' | 'no_json_example'

/** How to check a skill's `returns`: the example bodies to POST, or why not. */
export type CardMatchPlan =
  | {kind: 'none'} // no `returns`: card_match is null (spec Versioning 4)
  | {kind: 'skip'; reason: CardMatchSkip; returns: string[]}
  | {kind: 'probe'; returns: string[]; bodies: JsonObject[]}

/** The card when it satisfies the PublicCard schema; otherwise a one-line reason. */
export function checkPublicCard(value: unknown): {card: PublicCard} | {error: string} {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {error: 'card_invalid: not a JSON object'}
  const validate = getValidator<PublicCard>('public-card')
  if (!validate(value)) return {error: `card_invalid: ${describeSchemaError(validate.errors![0], value)}`}
  return {card: value}
}

/** Decides whether and how a skill's `returns` are checked. */
export function cardMatchPlan(skill: CardSkill, cardPricing: CardPricing): CardMatchPlan {
  const returns = (skill.returns ?? []).filter((path) => typeof path === 'string' && path !== '')
  if (returns.length === 0) return {kind: 'none'}
  if (skill.probe === false) return {kind: 'skip', reason: 'probe_disabled', returns}
  if (isPaid(skillPricing(skill, {pricing: cardPricing}))) return {kind: 'skip', reason: 'paid', returns}
  const bodies = jsonExampleBodies(skill.examples).slice(0, MAX_EXAMPLES_PER_SKILL)
  if (bodies.length === 0) return {kind: 'skip', reason: 'no_json_example', returns}
  return {kind: 'probe', returns, bodies}
}

/**
 * The base URL of an agent's skill endpoints: the card's `url` when it is on
 * the registered endpoint's origin, else the endpoint itself. A card cannot
 * point the prober (and the `invoke` URLs) at someone else's host.
 */
export function skillBaseUrl(card: PublicCard, endpoint: string): string {
  const trim = (url: string) => url.replace(/\/+$/, '')
  try {
    if (new URL(card.url).origin === new URL(endpoint).origin) return trim(card.url)
  } catch {
    // an unparsable card url falls back to the endpoint
  }
  return trim(endpoint)
}

/** Reads a dotted path (`a.b.0.c`, `a.b[0].c`) from a JSON value; a name step on an array reads its first item. */
export function readPath(value: unknown, path: string): unknown {
  let current = value
  for (const step of path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (current === null || current === undefined) return undefined
    if (Array.isArray(current)) current = /^\d+$/.test(step) ? current[Number(step)] : (current[0] as JsonObject | undefined)?.[step]
    else if (typeof current === 'object') current = (current as JsonObject)[step]
    else return undefined
  }
  return current
}

/** How many of the declared paths a response holds with a non-null value. */
export function countPresent(response: unknown, returns: readonly string[]): number {
  return returns.filter((path) => {
    const found = readPath(response, path)
    return found !== undefined && found !== null
  }).length
}

export {isPaid, jsonExampleBodies, type CardPricing, type CardSkill, type PublicCard}
