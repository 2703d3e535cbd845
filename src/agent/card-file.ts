/**
 * Reads a DiscoveryCard from a file (JSON, or YAML by extension) and checks
 * it the way the registry will (schema, 16 KB, 16 levels), so `mesh agent up`
 * fails fast with the field named instead of at the first heartbeat.
 */
import {readFile} from 'node:fs/promises'
import {extname} from 'node:path'
import {invalid} from '../lib/errors.js'
import {assertValid} from '../lib/schemas.js'
import {cardLimitProblem} from '../protocol/registry.js'

export async function loadCardFile(path: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw invalid('card_unreadable', `Cannot read the card ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  let card: unknown
  try {
    card = ['.yaml', '.yml'].includes(extname(path).toLowerCase()) ? (await import('yaml')).parse(text) : JSON.parse(text)
  } catch (error) {
    throw invalid('card_unreadable', `${path} is not valid ${extname(path).toLowerCase().startsWith('.y') ? 'YAML' : 'JSON'}: ${(error as Error).message}`)
  }
  if (!card || typeof card !== 'object' || Array.isArray(card)) throw invalid('invalid_card', `${path} must hold a JSON object (a DiscoveryCard)`)
  const problem = cardLimitProblem(card as Record<string, unknown>, 'card')
  if (problem) throw invalid(problem.code, problem.message, {field: 'card'})
  return assertValid<Record<string, unknown>>('discovery-card', card, 'invalid_card')
}
