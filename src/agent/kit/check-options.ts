/**
 * createAgent's option checks: everything that can be wrong with an agent is
 * found when it is created, as a TypeError with one clear sentence (STYLE:
 * conflicting options throw), never at the first call.
 */
import {normalizeAudience} from '../../identity/audience.js'
import type {NonceStore} from '../../identity/nonce-store.js'
import {createMemoryNonceStore} from '../../identity/nonce-store.js'
import {kebabCase} from '../../lib/kebab-case.js'
import {silentLogger, type Logger} from '../../lib/log.js'
import {describeSchemaError, getValidator} from '../../lib/schemas.js'
import {isPaid, skillInputSchema, skillPricing, type PublicCard} from '../../protocol/agent-card.js'
import type {PaymentGate} from '../payments/types.js'
import {DEFAULT_BODY_LIMIT, RESERVED_SKILL_IDS, SKILL_PATH_PREFIX} from './constants.js'
import {withProtocolEndpoints} from './protocol-endpoints.js'
import {createInputCompiler, type InputCheck} from './input-validator.js'
import type {CreateAgentOptions, SkillHandler} from './types.js'

/** One skill, ready to serve: its handler, its compiled input check and its price. */
export interface CompiledSkill {
  id: string
  /** `/v1/<id>`: the challenge's `resource`. */
  resource: string
  handler: SkillHandler
  /** Absent when the skill declares no input schema. */
  check?: InputCheck
  /** Integer lamports per call; null for a free skill. */
  lamports: bigint | null
}

/** The options with defaults applied and the card frozen as it will be served. */
export interface CheckedOptions {
  card: PublicCard
  skills: Map<string, CompiledSkill>
  agentId: string
  payments?: PaymentGate
  nonces: NonceStore
  /** The audience v2 signatures must name (issue 18); null: the one each request was addressed to (`audienceFromRequest`). */
  audience: string | null
  /** The agent's public base URL without a trailing slash (`publicUrl`, else the card's `url`): where its A2A and MCP endpoints are. */
  baseUrl: string
  ready?: () => boolean | Promise<boolean>
  clock: () => number
  logger: Logger
  bodyLimit: number
}

function fail(sentence: string): never {
  throw new TypeError(`createAgent: ${sentence}`)
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

/** A JSON copy of the card: what is validated is exactly what is served, and later edits by the caller change nothing. */
function snapshotCard(card: unknown): PublicCard {
  if (!isObject(card)) fail('`card` must be a PublicCard object')
  let copy: unknown
  try {
    copy = JSON.parse(JSON.stringify(card))
  } catch (error) {
    fail(`the card is not JSON (${(error as Error).message})`)
  }
  const validate = getValidator<PublicCard>('public-card')
  if (!validate(copy)) {
    const problems = validate.errors!.slice(0, 3).map((error) => describeSchemaError(error, copy)).join('; ')
    fail(`the card is not a valid PublicCard (schemas/public-card.schema.json): ${problems}`)
  }
  return deepFreeze(copy as PublicCard)
}

/** spec Pricing + DECISIONS Paid calls: the kit can only verify lamports, so another paid currency cannot be served. */
function priceOf(card: PublicCard, skillId: string, pricing: ReturnType<typeof skillPricing>, payments: PaymentGate | undefined): bigint | null {
  if (!isPaid(pricing)) return null
  if (String(pricing.currency).toLowerCase() !== 'lamports') {
    fail(`skill "${skillId}" is priced in ${JSON.stringify(pricing.currency)}, but the kit can only charge in lamports (set currency "lamports" or make it free)`)
  }
  if (!Number.isSafeInteger(pricing.amount)) fail(`skill "${skillId}" costs ${pricing.amount} lamports; an amount in lamports must be an integer`)
  if (!payments) fail(`skill "${skillId}" of "${card.name}" is paid (${pricing.amount} lamports) but no \`payments\` gate was given (createPayments in mesh/agent)`)
  return BigInt(pricing.amount as number)
}

/** issue 18: the audience v2 Mesh-Sig must name — `publicUrl`'s origin, else the card's `url`'s; null when taken from each request. */
function audienceOf(options: CreateAgentOptions, card: PublicCard): string | null {
  if (options.audienceFromRequest !== undefined && typeof options.audienceFromRequest !== 'boolean') fail('`audienceFromRequest` must be a boolean')
  if (options.audienceFromRequest) {
    if (options.publicUrl !== undefined) fail('give `publicUrl` or `audienceFromRequest`, not both: the audience is either the public URL or the address each request names')
    return null
  }
  const [url, what] = options.publicUrl === undefined ? [card.url, "the card's url"] : [options.publicUrl, '`publicUrl`']
  if (typeof url !== 'string') fail(`${what} must be a string URL`)
  try {
    return normalizeAudience(url)
  } catch (error) {
    fail(`${what} cannot name the agent in Mesh-Sig v2 signatures: ${(error as Error).message}`)
  }
}

/** Applies defaults and checks every rule; throws a TypeError naming the first problem. */
export function checkOptions(options: CreateAgentOptions): CheckedOptions {
  if (!isObject(options)) fail('options must be an object `{card, skills, ...}`')
  const card = snapshotCard(options.card)
  const handlers = options.skills
  if (!isObject(handlers)) fail('`skills` must be an object mapping each skill id to its handler')
  const payments = options.payments
  if (payments !== undefined && (!isObject(payments) || typeof payments.admit !== 'function' || typeof payments.close !== 'function')) {
    fail('`payments` must be a PaymentGate (admit and close functions)')
  }
  for (const name of ['ready', 'clock'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`\`${name}\` must be a function`)
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit <= 0) fail('`bodyLimit` must be a positive integer number of bytes')
  const audience = audienceOf(options, card)
  const agentId = options.agentId ?? (kebabCase(card.name) || 'agent')
  if (typeof agentId !== 'string' || agentId === '') fail('`agentId` must be a non-empty string')

  const compile = createInputCompiler()
  const skills = new Map<string, CompiledSkill>()
  for (const skill of card.skills) {
    if (skills.has(skill.id)) fail(`the card lists skill "${skill.id}" twice; skill ids are paths and must be unique`)
    if (RESERVED_SKILL_IDS.includes(skill.id)) fail(`skill id "${skill.id}" is reserved: the kit serves ${SKILL_PATH_PREFIX}${skill.id} itself`)
    const handler = Object.hasOwn(handlers, skill.id) ? handlers[skill.id] : undefined
    if (handler === undefined) fail(`skill "${skill.id}" is on the card but has no handler in \`skills\``)
    if (typeof handler !== 'function') fail(`the handler of skill "${skill.id}" is not a function`)
    const schema = skillInputSchema(skill)
    skills.set(skill.id, {
      id: skill.id,
      resource: SKILL_PATH_PREFIX + skill.id,
      handler,
      check: schema ? compile(skill.id, schema) : undefined,
      lamports: priceOf(card, skill.id, skillPricing(skill, card), payments),
    })
  }
  for (const id of Object.keys(handlers)) {
    if (!skills.has(id)) fail(`there is a handler for "${id}" but the card has no skill with that id`)
  }
  const baseUrl = (options.publicUrl ?? card.url).replace(/\/+$/, '')
  return {
    card: deepFreeze(withProtocolEndpoints(card, baseUrl)),
    baseUrl,
    skills,
    agentId,
    payments,
    nonces: options.nonces ?? createMemoryNonceStore({clock: options.clock}),
    audience,
    ready: options.ready,
    clock: options.clock ?? Date.now,
    logger: options.logger ?? silentLogger,
    bodyLimit,
  }
}
