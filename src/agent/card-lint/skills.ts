/** The per-skill rules (spec Skill): ids, examples, schemas, description, returns, own pricing. */
import {isDeepStrictEqual} from 'node:util'
import {isPaid, jsonExampleBodies, skillPricing, type CardPricing, type CardSkill} from '../../protocol/agent-card.js'
import {isObject, pointer, quote, type Findings} from './collector.js'
import {MAX_EXAMPLES, MIN_EXAMPLES, SKILL_ID_MAX_LENGTH, SKILL_ID_PATTERN} from './constants.js'
import {missingDescriptionParts, PART_MESSAGES} from './description.js'
import {compileSkillSchema, firstFailure} from './json-schema.js'
import {checkPricing} from './pricing.js'
import {returnsFit, returnsPathProblem} from './returns.js'

/** A natural-language ask: text that is not JSON and has at least two words with letters. */
export function isNaturalLanguageAsk(example: string): boolean {
  const text = example.trim()
  if (/^[[{"]/.test(text)) {
    try {
      JSON.parse(text)
      return false
    } catch {
      // prose that happens to start with a brace or a quote
    }
  }
  return text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length >= 2
}

/** The schema a skill gives under either spelling, with where it sits; `camel` wins (skillInputSchema does the same). */
function schemaOf(skill: Record<string, unknown>, camel: string, snake: string): {schema: Record<string, unknown>; key: string} | undefined {
  for (const key of [camel, snake]) {
    const value = skill[key]
    if (isObject(value)) return {schema: value, key}
  }
  return undefined
}

export function checkSkillIds(skills: readonly unknown[], out: Findings): void {
  const seen = new Map<string, number>()
  skills.forEach((skill, index) => {
    if (!isObject(skill) || typeof skill.id !== 'string') return
    const at = pointer('skills', index, 'id')
    if (!SKILL_ID_PATTERN.test(skill.id) || skill.id.length > SKILL_ID_MAX_LENGTH)
      out.add('skill-id-kebab', at, `${quote(skill.id)} is not kebab-case (lower-case letters and digits joined by single hyphens, at most ${SKILL_ID_MAX_LENGTH} characters); it is the path segment of POST /v1/<id>`)
    const first = seen.get(skill.id)
    if (first !== undefined) out.add('skill-id-unique', at, `${quote(skill.id)} is also the id of skills[${first}]`)
    else seen.set(skill.id, index)
  })
}

function checkExamples(skill: Record<string, unknown>, at: string, input: {validate?: (value: unknown) => boolean; reason: () => string}, out: Findings): void {
  const examples = skill.examples
  if (!Array.isArray(examples)) return // card-schema
  if (examples.length < MIN_EXAMPLES || examples.length > MAX_EXAMPLES)
    out.add('skill-examples-count', `${at}/examples`, `${examples.length} example${examples.length === 1 ? '' : 's'}; a skill has ${MIN_EXAMPLES} to ${MAX_EXAMPLES}`)
  const texts = examples.map((example) => (typeof example === 'string' ? example : ''))
  if (jsonExampleBodies(texts).length === 0)
    out.add('skill-example-json', `${at}/examples`, 'no example is a literal JSON body (a string holding an object, such as {"text": "hello"}); the registry\'s card_match probe and callers need one')
  if (!texts.some(isNaturalLanguageAsk)) out.add('skill-example-ask', `${at}/examples`, 'no example is a natural-language ask (such as: Translate “good morning” into French.)')
  if (!input.validate) return
  texts.forEach((text, index) => {
    const [body] = jsonExampleBodies([text])
    if (body !== undefined && !input.validate!(body)) out.add('skill-example-input', `${at}/examples/${index}`, `this JSON example does not satisfy the input schema: ${input.reason()}`)
  })
}

/** Compiles each schema the skill carries; reports the ones that do not compile. Returns the input validator. */
function checkSchemas(skill: Record<string, unknown>, at: string, out: Findings) {
  let input: {validate?: (value: unknown) => boolean; reason: () => string} = {reason: () => ''}
  for (const key of ['inputSchema', 'input_schema', 'outputSchema', 'output_schema']) {
    const schema = skill[key]
    if (!isObject(schema)) continue
    const compiled = compileSkillSchema(schema)
    if ('error' in compiled) {
      out.add('skill-schema-invalid', `${at}/${key}`, `does not compile as a JSON Schema: ${compiled.error}`)
      continue
    }
    if (key === schemaOf(skill, 'inputSchema', 'input_schema')?.key) input = {validate: (value) => compiled.validate(value) as boolean, reason: () => firstFailure(compiled.validate)}
  }
  for (const [camel, snake] of [['inputSchema', 'input_schema'], ['outputSchema', 'output_schema']]) {
    if (skill[camel] !== undefined && skill[snake] !== undefined && !isDeepStrictEqual(skill[camel], skill[snake]))
      out.add('skill-schema-spellings', `${at}/${snake}`, `differs from ${camel}; readers use ${camel} when both are there, so ${snake} is ignored`)
  }
  return input
}

function checkDescription(skill: Record<string, unknown>, at: string, pricing: CardPricing | undefined, out: Findings): void {
  if (typeof skill.description !== 'string' || skill.description.trim() === '') return // card-schema
  const properties = schemaOf(skill, 'inputSchema', 'input_schema')?.schema.properties
  const missing = missingDescriptionParts(skill.description, {inputNames: isObject(properties) ? Object.keys(properties) : [], paid: isPaid(pricing)})
  for (const part of missing) out.add(`skill-description-${part}`, `${at}/description`, PART_MESSAGES[part])
}

function checkReturns(skill: Record<string, unknown>, at: string, out: Findings): void {
  if (!Array.isArray(skill.returns)) return
  const output = schemaOf(skill, 'outputSchema', 'output_schema')
  const seen = new Set<string>()
  skill.returns.forEach((path, index) => {
    if (typeof path !== 'string') return // card-schema
    const where = `${at}/returns/${index}`
    const problem = returnsPathProblem(path)
    if (problem) return out.add('returns-path', where, problem)
    if (seen.has(path)) return out.add('returns-duplicate', where, `${quote(path)} is listed twice`)
    seen.add(path)
    if (!output) return
    const fit = returnsFit(output.schema, path)
    if (fit === 'forbidden') out.add('returns-output-schema', where, `${quote(path)} cannot be in a response that satisfies ${output.key}`)
    else if (fit === 'undeclared') out.add('returns-output-schema', where, `${quote(path)} is not declared in ${output.key}`)
  })
}

/** Every per-skill rule for `skills[index]`. */
export function checkSkill(skill: Record<string, unknown>, index: number, cardPricing: unknown, out: Findings): void {
  const at = pointer('skills', index)
  const input = checkSchemas(skill, at, out)
  checkExamples(skill, at, input, out)
  const pricing = skillPricing(skill as CardSkill, {pricing: (isObject(cardPricing) ? cardPricing : undefined) as CardPricing})
  checkDescription(skill, at, pricing, out)
  checkReturns(skill, at, out)
  if (skill.pricing !== undefined) checkPricing(skill.pricing, `${at}/pricing`, out)
}
