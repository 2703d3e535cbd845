/**
 * The DiscoveryCard an agent pushes on every heartbeat, derived from the
 * PublicCard it serves (spec: DiscoveryCard, PublicCard, Limits). The
 * registry refuses what breaks its limits and never truncates (spec Errors:
 * "400; no truncation"), so neither does this: a card that cannot make a
 * valid DiscoveryCard is an error naming the PublicCard field to change.
 */
import type {ErrorObject} from 'ajv'
import {invalid} from '../lib/errors.js'
import {getValidator, instancePathToField} from '../lib/schemas.js'
import {patternWords} from '../lib/schema-words.js'
import type {CardPricing, PublicCard} from '../protocol/agent-card.js'
import {cardLimitProblem} from '../protocol/registry.js'

/** spec DiscoveryCard (schemas/discovery-card.schema.json): what the registry indexes. */
export interface DiscoveryCard {
  name: string
  endpoint: string
  description: string
  category?: string
  tags?: string[]
  accepts: string[]
  produces: string[]
  protocols: string[]
  pricing: CardPricing
  availability: {now: boolean}
  owner_class: 'third-party'
  brand?: string
  contact?: Record<string, string>
}

export interface DiscoveryCardOptions {
  /** The agent's public URL (`--public-url`): the card's `endpoint`. Default: the card's `url`. */
  publicUrl?: string
  /** How messages name the PublicCard; default `agent.json`. */
  source?: string
}

/** spec Limits: description ≤ 500; capabilities (= tags) max 12 entries, each ≤ 50 chars. */
export const DISCOVERY_LIMITS = {description: 500, tags: 12, tagLength: 50} as const

/** DiscoveryCard field → the PublicCard field it comes from, so an error names what the author edits. */
const SOURCE_FIELD: Record<string, string> = {endpoint: 'url', accepts: 'defaultInputModes', produces: 'defaultOutputModes'}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string')

/**
 * The card's tags: its own top-level `tags` when it has them (the author's
 * choice wins), else the union of its skills' tags in card order. Either way
 * at most 12, each 1–50 characters; more is an error, not a cut.
 */
function tagsOf(card: PublicCard, fail: (field: string, message: string) => never): string[] | undefined {
  if (card.tags !== undefined) {
    if (!isStringArray(card.tags)) fail('tags', '"tags" must be an array of strings')
    return checkTags(card.tags, 'tags', '"tags"', fail)
  }
  const union: string[] = []
  for (const skill of card.skills) for (const tag of isStringArray(skill.tags) ? skill.tags : []) if (!union.includes(tag)) union.push(tag)
  return union.length > 0 ? checkTags(union, 'skills[].tags', 'the skills\' tags together', fail) : undefined
}

function checkTags(tags: string[], field: string, what: string, fail: (field: string, message: string) => never): string[] {
  if (tags.length > DISCOVERY_LIMITS.tags) {
    const fix = field === 'tags' ? 'keep the 12 that matter most' : 'set a top-level "tags" of at most 12 to use instead'
    fail(field, `${what} make ${tags.length} tags; the registry takes at most ${DISCOVERY_LIMITS.tags} (spec Limits, capabilities): ${fix}`)
  }
  const bad = tags.find((tag) => tag.length === 0 || tag.length > DISCOVERY_LIMITS.tagLength)
  if (bad !== undefined) fail(field, `tag "${bad.slice(0, 60)}${bad.length > 60 ? '…' : ''}" in ${what} is ${bad.length} characters; each tag must be 1 to ${DISCOVERY_LIMITS.tagLength}`)
  return tags
}

function fieldOf(error: ErrorObject): string {
  const missing = (error.params as {missingProperty?: string}).missingProperty
  const field = instancePathToField(error.keyword === 'required' && missing ? `${error.instancePath}/${missing}` : error.instancePath)
  const [head, ...rest] = field.split(/(?=[.[])/)
  return (SOURCE_FIELD[head] ?? head) + rest.join('')
}

/**
 * Derives the DiscoveryCard from a PublicCard (checked against
 * schemas/public-card.schema.json already): `name`, `endpoint` (the public
 * URL), `description` (≤ 500), `category` and `brand` from the card's own
 * keys of those names, `tags` (see above), `accepts`/`produces` from the
 * default modes, `protocols`, `pricing`, `availability: {now}`,
 * `owner_class: "third-party"`, `contact` when present. The result passes
 * schemas/discovery-card.schema.json and the 16 KB / 16 levels limit; else
 * a MeshError `discovery_card_invalid` whose `field` is the PublicCard's.
 */
export function discoveryCardOf(card: PublicCard, options: DiscoveryCardOptions = {}): DiscoveryCard {
  const source = options.source ?? 'agent.json'
  const fail = (field: string, message: string): never => {
    throw invalid('discovery_card_invalid', `${source}: ${message}`, {field})
  }
  if (card.description.length > DISCOVERY_LIMITS.description) {
    fail('description', `"description" is ${card.description.length} characters; the registry takes at most ${DISCOVERY_LIMITS.description} (spec Limits, no truncation): shorten it`)
  }
  if (card.category !== undefined && (typeof card.category !== 'string' || card.category === '')) fail('category', '"category" must be a non-empty string such as "text.transform"')
  if (card.brand !== undefined && (typeof card.brand !== 'string' || card.brand === '')) fail('brand', '"brand" must be a non-empty string (a grouping id shared by one operator\'s agents)')
  const tags = tagsOf(card, fail)
  const discovery: DiscoveryCard = {
    name: card.name,
    endpoint: options.publicUrl ?? card.url,
    description: card.description,
    ...(card.category !== undefined ? {category: card.category as string} : {}),
    ...(tags ? {tags} : {}),
    accepts: card.defaultInputModes,
    produces: card.defaultOutputModes,
    protocols: card.protocols,
    pricing: card.pricing,
    availability: {now: card.availability.now},
    owner_class: 'third-party',
    ...(card.brand !== undefined ? {brand: card.brand as string} : {}),
    ...(card.contact !== undefined ? {contact: card.contact} : {}),
  }
  const validate = getValidator<DiscoveryCard>('discovery-card')
  if (!validate(discovery)) {
    const first = validate.errors![0]
    const field = fieldOf(first)
    const wrong = first.keyword === 'pattern' ? `must be ${patternWords((first.params as {pattern: string}).pattern)}` : (first.message ?? 'is invalid')
    fail(field, `"${field}" ${wrong} in the DiscoveryCard sent to the registry (schemas/discovery-card.schema.json)`)
  }
  const limit = cardLimitProblem(discovery as unknown as Record<string, unknown>, 'the DiscoveryCard')
  if (limit) fail('$', `${limit.message}; make the card smaller`)
  return discovery
}
