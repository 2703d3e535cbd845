/**
 * DiscoveryCard rules: size and nesting limits (400, never truncation),
 * hoisting of name/owner_class/brand, reserved owner classes, capabilities =
 * tags, and the shallow merge of `me/state`. No HTTP here.
 * spec: DiscoveryCard, Limits, `POST /v1/agents/me/state`; DECISIONS: reserved owner_class, capabilities = tags.
 */
import {invalid} from '../lib/errors.js'
import {assertValid} from '../lib/schemas.js'
import {assertStorableJson} from '../lib/storable-json.js'
import {cardLimitProblem, nestsDeeperThan} from '../protocol/registry.js'
import {STATE_KEYS} from './constants.js'
import type {JsonObject, OwnerClass} from './types.js'

export {nestsDeeperThan}

/** spec Limits: 400 when the card is over 16 KB serialized or nests deeper than 16 levels. */
export function assertCardLimits(card: JsonObject, field = 'agent_card'): void {
  const problem = cardLimitProblem(card, field)
  if (problem) throw invalid(problem.code, problem.message, {field})
}

/** spec Limits: 400 when the card is over 16 KB serialized (for a card whose depth is already known to be within bounds). */
export function assertCardSize(card: JsonObject, field = 'agent_card'): void {
  const problem = cardLimitProblem(card, field, false)
  if (problem) throw invalid(problem.code, problem.message, {field})
}

const RESERVED: ReadonlySet<OwnerClass> = new Set(['core', 'partner'])

/**
 * The owner class to store. The admin key may set any class. Anyone else may
 * ask for `third-party`, or keep a reserved class the admin granted earlier;
 * asking for `core`/`partner` otherwise stores `third-party` with a warning.
 * A card without owner_class keeps the stored class.
 */
export function resolveOwnerClass(requested: unknown, stored: OwnerClass, isAdmin: boolean): {ownerClass: OwnerClass; warning?: string} {
  if (requested === undefined) return {ownerClass: stored}
  const asked = requested as OwnerClass
  if (isAdmin || !RESERVED.has(asked) || asked === stored) return {ownerClass: asked}
  return {
    ownerClass: 'third-party',
    warning: `owner_class "${asked}" is reserved for registry-operated agents; stored as "third-party"`,
  }
}

export interface CardUpdate {
  card: JsonObject
  capabilities: string[]
  displayName: string | null
  ownerClass: OwnerClass
  brand: string | null
  endpoint: string | null
  warnings: string[]
}

/**
 * Prepares a pushed card for storage: the card's `tags` win over the body's
 * `capabilities` (DECISIONS: kept equal), the stored card always carries the
 * tags and the resolved owner_class, and the hoisted fields are read out.
 */
export function prepareCard(input: {
  card: JsonObject
  bodyCapabilities?: string[]
  storedCapabilities: string[]
  storedOwnerClass: OwnerClass
  storedEndpoint: string | null
  isAdmin: boolean
}): CardUpdate {
  const warnings: string[] = []
  const card = {...input.card}
  const tags = card.tags as string[] | undefined
  let capabilities: string[]
  if (tags !== undefined) {
    capabilities = tags
    if (input.bodyCapabilities && !sameList(input.bodyCapabilities, tags)) {
      warnings.push('capabilities differ from agent_card.tags; the tags were kept for both')
    }
  } else {
    capabilities = input.bodyCapabilities ?? input.storedCapabilities
  }
  card.tags = capabilities
  const owner = resolveOwnerClass(card.owner_class, input.storedOwnerClass, input.isAdmin)
  if (owner.warning) warnings.push(owner.warning)
  card.owner_class = owner.ownerClass
  return {
    card,
    capabilities,
    displayName: typeof card.name === 'string' ? card.name : null,
    ownerClass: owner.ownerClass,
    brand: typeof card.brand === 'string' ? card.brand : null,
    endpoint: typeof card.endpoint === 'string' ? card.endpoint : input.storedEndpoint,
    warnings,
  }
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((item, i) => item === b[i])

/**
 * spec `me/state`: keeps only the allowed top-level keys (the others are
 * returned as ignored), validates them, and shallow-merges them into the
 * stored card; a key set to null is removed. Limits are checked by the caller
 * on the merged card.
 */
export function mergeState(stored: JsonObject | null, update: JsonObject): {card: JsonObject; ignoredKeys: string[]} {
  const allowed = new Set<string>(STATE_KEYS)
  const picked: JsonObject = {}
  const ignoredKeys: string[] = []
  for (const [key, value] of Object.entries(update)) {
    if (allowed.has(key)) picked[key] = value
    else ignoredKeys.push(key)
  }
  // Nulls mean "remove"; only the values being set are validated.
  assertValid('registry-state', Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== null)))
  assertStorableJson(picked)
  const card: JsonObject = {...(stored ?? {})}
  for (const [key, value] of Object.entries(picked)) {
    if (value === null) delete card[key]
    else card[key] = value
  }
  return {card, ignoredKeys}
}
