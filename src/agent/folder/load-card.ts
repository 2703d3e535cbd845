/**
 * Reads an agent folder's `agent.json` and checks it against
 * schemas/public-card.schema.json (spec: PublicCard, Skill, Pricing), so a
 * wrong card stops `mesh agent serve` with the file and the field named,
 * before anything listens.
 */
import {readFile} from 'node:fs/promises'
import type {ErrorObject} from 'ajv'
import {invalid} from '../../lib/errors.js'
import {getValidator, instancePathToField} from '../../lib/schemas.js'
import {patternWords} from '../../lib/schema-words.js'
import type {PublicCard} from '../../protocol/agent-card.js'

/** The JSON path of the field an ajv error is about (a missing key names the key itself). */
function fieldOf(error: ErrorObject): string {
  const params = error.params as {missingProperty?: string; additionalProperty?: string}
  const leaf = error.keyword === 'required' ? params.missingProperty : error.keyword === 'additionalProperties' ? params.additionalProperty : undefined
  return instancePathToField(leaf === undefined ? error.instancePath : `${error.instancePath}/${leaf}`)
}

/** One schema error in words: the field, then what is wrong with it. */
function problemOf(error: ErrorObject): string {
  const field = fieldOf(error)
  if (error.keyword === 'required') return `"${field}" is missing`
  if (error.keyword === 'pattern' && /(^|\.)id$/.test(field)) return `"${field}" must be kebab-case (a-z, 0-9 and single hyphens)`
  if (error.keyword === 'pattern') return `"${field}" must be ${patternWords((error.params as {pattern: string}).pattern)}`
  return `"${field}" ${error.message ?? 'is invalid'}`
}

/**
 * The PublicCard in `path`. Throws a MeshError (`agent_card_unreadable`,
 * `agent_card_invalid` with `field`) whose message starts with `shownPath`.
 */
export async function readAgentCard(path: string, shownPath: string = path): Promise<PublicCard> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw invalid('agent_card_unreadable', `Cannot read ${shownPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let card: unknown
  try {
    card = JSON.parse(text)
  } catch (error) {
    throw invalid('agent_card_invalid', `${shownPath} is not valid JSON: ${(error as Error).message}`)
  }
  if (card === null || typeof card !== 'object' || Array.isArray(card)) {
    throw invalid('agent_card_invalid', `${shownPath} must hold one JSON object, the agent's PublicCard`)
  }
  const validate = getValidator<PublicCard>('public-card')
  if (!validate(card)) {
    const errors = validate.errors ?? []
    // ajv reports a failed $ref branch and its parent; the first error is the most precise one.
    const problems = [...new Set(errors.map(problemOf))]
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''
    throw invalid('agent_card_invalid', `${shownPath} is not a valid PublicCard: ${problems.slice(0, 3).join('; ')}${more}`, {field: errors[0] ? fieldOf(errors[0]) : undefined})
  }
  return card
}
